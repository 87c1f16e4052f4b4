import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/dialog';
import { ErrorText } from '../../components/ui/field';
import { Card } from '../../components/ui/section';
import { Loaded } from '../../components/ui/request-state';
import { AddMc } from './add-mc';
import { McItem } from './mc-item';
import { useUnsavedChanges } from '../../components/unsaved-changes';
import { TeamPhones } from './team-phones';
import { useLines } from './use-lines';
import './lines.css';

/** Lines (/lines): Add New MC, My MC List with Show in DAT, lines, templates, delete, Save Settings. */
export default function Lines() {
  const screen = useLines();
  const { mcs, deleting } = screen;
  const unsaved = useUnsavedChanges(screen.dirty, screen.saveSettings);
  return (
    <div className="page narrow-wide">
      <div className="page-header">
        <h1>Lines</h1>
        <Link className="btn btn-link" to="/help/lines" target="_blank" rel="noopener">
          Help
        </Link>
      </div>
      <AddMc isAgent={screen.isAgent} parentMcs={screen.parentMcs} mine={screen.saved ?? []} takenBy={screen.holders()} onAdded={screen.reload} />
      <Card
        title="My MC List"
        actions={
          <Button onClick={() => void screen.saveSettings()} disabled={!screen.dirty || screen.saving}>
            Save Settings
          </Button>
        }
      >
        <Loaded what="your MCs" state={screen.read}>
          {() =>
            mcs.length === 0 ? (
              <p className="muted">No MCs yet. Add your first MC above.</p>
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
        <ErrorText>{screen.listProblem}</ErrorText>
        {screen.dirty && <p className="muted unsaved">You have unsaved changes: press Save Settings.</p>}
      </Card>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && screen.setDeleting(null)}
        message={
          <>
            Are you sure you want to delete {deleting?.name}?
            {deleting && !screen.isAgent && (
              <span className="confirm-note">Your agents' settings for this MC are removed too, and filters no longer list it.</span>
            )}
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
