import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/dialog';
import { ErrorText } from '../../components/ui/field';
import { Loaded } from '../../components/ui/request-state';
import { Card } from '../../components/ui/section';
import { useUnsavedChanges } from '../../components/unsaved-changes';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-lines.json';
import { messageText } from '../../i18n/errors';
import { AddMc } from './add-mc';
import { McItem } from './mc-item';
import { TeamPhones } from './team-phones';
import { useLines } from './use-lines';
import './lines.css';

addEnglish(english);

/** Lines (/lines): Add New MC, My MC List with Show in DAT, lines, templates, delete, Save Settings. */
export default function Lines() {
  const { t } = useTranslation();
  const screen = useLines();
  const { mcs, deleting } = screen;
  const unsaved = useUnsavedChanges(screen.dirty, screen.saveSettings);
  return (
    <div className="page narrow-wide">
      <div className="page-header">
        <h1>{t('lines.title')}</h1>
        <Link className="btn btn-link" to="/help/lines" target="_blank" rel="noopener">
          {t('lines.help')}
        </Link>
      </div>
      <AddMc isAgent={screen.isAgent} parentMcs={screen.parentMcs} mine={screen.saved ?? []} takenBy={screen.holders()} onAdded={screen.reload} />
      <Card
        title={t('lines.myList')}
        actions={
          <Button onClick={() => void screen.saveSettings()} disabled={!screen.dirty || screen.saving}>
            {t('lines.saveSettings')}
          </Button>
        }
      >
        <Loaded what={t('lines.what')} state={screen.read}>
          {() =>
            mcs.length === 0 ? (
              <p className="muted">{t('lines.empty')}</p>
            ) : (
              <ul className="mc-list" data-testid="mc-list">
                {mcs.map((m) => (
                  <McItem
                    key={m._id}
                    mc={m}
                    savedName={screen.saved?.find((d) => d._id === m._id)?.name ?? m.name}
                    takenBy={screen.holders(m._id)}
                    busy={screen.busy}
                    onEdit={(patch) => screen.edit(m._id, patch)}
                    onToggle={() => screen.toggle(m)}
                    onDelete={() => screen.setDeleting(m)}
                  />
                ))}
              </ul>
            )
          }
        </Loaded>
        <ErrorText>{messageText(screen.listProblem)}</ErrorText>
        {screen.dirty && <p className="muted unsaved">{t('lines.unsaved')}</p>}
      </Card>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && screen.setDeleting(null)}
        message={
          <>
            {t('lines.confirmDelete', { name: deleting?.name ?? '' })}
            {deleting && !screen.isAgent && <span className="confirm-note">{t('lines.deleteNote')}</span>}
          </>
        }
        onConfirm={screen.confirmDelete}
        busy={screen.busy}
      />
      <TeamPhones />
      {unsaved.dialog}
    </div>
  );
}
