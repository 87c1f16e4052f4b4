import { Tabs } from '../../components/ui/tabs';
import { usePromoList } from './api';
import { CreatePromoCodes } from './create-codes';
import { FinishedCodes, FreeCodes, UsedCodes } from './promo-tables';
import './promo.css';

/** /promoCodes: Create Promo Codes, then Free (editable), Used and Activated Promo Codes. Marketing and the admin. */
export default function PromoCodes() {
  const free = usePromoList('free').data?.length;
  const used = usePromoList('used').data?.length;
  const finished = usePromoList('finished').data?.length;
  const count = (n: number | undefined) => (n === undefined ? '' : ` (${n})`);
  return (
    <div className="page promo-page">
      <div className="page-header">
        <h1>Promo Codes</h1>
      </div>
      <CreatePromoCodes />
      <Tabs
        tabs={[
          { value: 'free', label: `Free Promo Codes${count(free)}`, content: <FreeCodes /> },
          { value: 'used', label: `Used Promo Codes${count(used)}`, content: <UsedCodes /> },
          { value: 'finished', label: `Activated Promo Codes${count(finished)}`, content: <FinishedCodes /> },
        ]}
      />
    </div>
  );
}
