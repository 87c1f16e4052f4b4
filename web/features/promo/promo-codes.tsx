import { useTranslation } from 'react-i18next';
import { Tabs } from '../../components/ui/tabs';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-promo.json';
import { usePromoList } from './api';
import { CreatePromoCodes } from './create-codes';
import { FinishedCodes, FreeCodes, UsedCodes } from './promo-tables';
import './promo.css';

// this screen's English texts (the login page's first bundle has none of them)
addEnglish(english);

/** /promoCodes: Create Promo Codes, then Free (editable), Used and Activated Promo Codes. Marketing and the admin. */
export default function PromoCodes() {
  const { t } = useTranslation();
  const free = usePromoList('free').data?.length;
  const used = usePromoList('used').data?.length;
  const finished = usePromoList('finished').data?.length;
  return (
    <div className="page promo-page">
      <div className="page-header">
        <h1>{t('titles.promoCodes')}</h1>
      </div>
      <CreatePromoCodes />
      <Tabs
        tabs={[
          { value: 'free', label: free === undefined ? t('promo.free') : t('promo.freeCount', { n: free }), content: <FreeCodes /> },
          { value: 'used', label: used === undefined ? t('promo.used') : t('promo.usedCount', { n: used }), content: <UsedCodes /> },
          {
            value: 'finished',
            label: finished === undefined ? t('promo.finished') : t('promo.finishedCount', { n: finished }),
            content: <FinishedCodes />,
          },
        ]}
      />
    </div>
  );
}
