import { useId, useState } from 'react';
import { NO_TYPE } from '../../../worker/filters/filters.schema';
import { Button } from '../../components/ui/button';
import { ConfirmDialog, Modal } from '../../components/ui/dialog';
import { ErrorText, Field } from '../../components/ui/field';
import type { FilterPayload, FilterTypeDto, TeamUserDto } from './api';
import { FilterActivity } from './filter-activity';
import { VettingPanel } from './vetting';
import { AudienceFields, ContactFields, McFields, TypeSelect } from './filter-fields';
import { useUnsavedChanges } from '../../components/unsaved-changes';
import { type FilterDraft, type Mc, type ModalMode, useFilterForm } from './use-filter-form';

const TITLES: Record<ModalMode, string> = { create: 'Create Filter', update: 'Update Filter', view: 'View Filter' };

/**
 * The create / update / view-only filter modal (spec: Broker Filtering). "Me" in the users
 * options is the filter's creator. A manager saving an unverified filter verifies it.
 */
export function FilterModal(props: {
  mode: ModalMode;
  draft: FilterDraft;
  me: { id: string; isLead: boolean };
  types: FilterTypeDto[];
  mcs: Mc[];
  mcName: (id: string) => string;
  teamUsers: TeamUserDto[];
  saving: boolean;
  /** A save the duplicate rule refused: the message, and the filter to open instead when the caller sees it. */
  duplicate?: { message: string; filterId?: string; name?: string } | null;
  onOpenDuplicate?: (d: { filterId: string; name: string }) => void;
  onClose: () => void;
  onSave: (payload: FilterPayload) => void;
}) {
  const { mode, me } = props;
  const form = useFilterForm(props);
  const { filter, details } = form;
  const readOnly = mode === 'view';
  const commentId = useId();
  const aliasesId = useId();
  const dup = props.duplicate;
  const saveLabel = mode === 'create' ? 'Create Filter' : me.isLead && filter && !filter.isVerified ? 'Verify and Update Info' : 'Update Info';
  // Unsaved edits are never dropped silently (decision 0130): Cancel, Escape and the close button
  // ask first, and leaving the screen offers Save (saves and stays here) / Discard / Stay.
  const [askDiscard, setAskDiscard] = useState(false);
  const close = () => (form.dirty ? setAskDiscard(true) : props.onClose());
  const unsaved = useUnsavedChanges(
    form.dirty,
    async () => {
      await form.saveNow();
      return false;
    },
    // closing a modal opened from a URL (/companyFilters/create/…) goes back to the list: not leaving
    (pathname) => pathname === '/companyFilters',
  );
  const usersLegend = `Users${filter && filter.creator._id !== me.id ? ` (Me = ${filter.creator.name}, the creator)` : ''}`;

  return (
    <Modal
      open
      wide
      onOpenChange={(open) => !open && close()}
      title={TITLES[mode]}
      footer={
        <>
          <a className="filter-help-link" href="/help/filters" target="_blank" rel="noopener">
            Help: how filters work
          </a>
          {!readOnly && (
            <Button type="submit" form="filter-form" disabled={props.saving}>
              {saveLabel}
            </Button>
          )}
          <Button variant="ghost" onClick={close}>
            {readOnly ? 'Close' : 'Cancel'}
          </Button>
        </>
      }
    >
      <form id="filter-form" className="filter-form" onSubmit={form.submit} noValidate>
        {filter && !filter.isVerified && (
          <p className="notice filter-unverified" data-testid="unverified-note">
            <span className="label-pill pill-warn">Unverified</span> Added by Agent
            {me.isLead ? ': saving verifies it for the team.' : ': your manager verifies it.'}
          </p>
        )}
        <fieldset disabled={readOnly} className="filter-fields">
          <div className="filter-grid">
            <Field label="Company name" value={details.name} onChange={(e) => details.setName(e.target.value)} autoComplete="off" />
            <TypeSelect label="Type" value={details.type} onChange={details.setType} types={props.types} none={{ value: NO_TYPE, label: 'Select type' }} />
          </div>
          <div className="filter-grid">
            <Field
              label="MC number"
              value={details.mcNumber}
              onChange={(e) => details.setMcNumber(e.target.value)}
              inputMode="numeric"
              placeholder="e.g. 123456"
            />
            <Field
              label="DOT number"
              value={details.dotNumber}
              onChange={(e) => details.setDotNumber(e.target.value)}
              inputMode="numeric"
              placeholder="e.g. 2345678"
            />
          </div>
          <div className="field">
            <label htmlFor={aliasesId}>Other names (one per line)</label>
            <textarea
              id={aliasesId}
              rows={2}
              value={details.aliases}
              onChange={(e) => details.setAliases(e.target.value)}
              placeholder="Names the broker also trades under"
            />
          </div>
          <div className="field">
            <label htmlFor={commentId}>Comment</label>
            <textarea id={commentId} rows={2} value={details.comment} onChange={(e) => details.setComment(e.target.value)} />
          </div>
          <AudienceFields users={form.users} legend={usersLegend} />
          <McFields mc={form.mc} />
          <ContactFields contacts={form.contacts} readOnly={readOnly} />
          <label className="check-line">
            <input type="checkbox" checked={details.isVisible} onChange={(e) => details.setIsVisible(e.target.checked)} />
            Active
          </label>
        </fieldset>
        <ErrorText>{form.problem}</ErrorText>
        {dup && (
          <p className="error-text filter-duplicate" role="alert" data-testid="duplicate-note">
            {dup.message}.{' '}
            {dup.filterId && props.onOpenDuplicate && (
              <Button variant="secondary" onClick={() => props.onOpenDuplicate!({ filterId: dup.filterId!, name: dup.name ?? '' })}>
                Open it
              </Button>
            )}
          </p>
        )}
      </form>
      {filter && (filter.mcNumber || filter.dotNumber) && <VettingPanel filterId={filter._id} canCheck={me.isLead} />}
      {filter && <FilterActivity filterId={filter._id} />}
      <ConfirmDialog
        open={askDiscard}
        onOpenChange={setAskDiscard}
        title="Discard your changes?"
        message="The changes you made to this filter are not saved."
        confirmLabel="Discard"
        onConfirm={() => {
          setAskDiscard(false);
          props.onClose();
        }}
      />
      {unsaved.dialog}
    </Modal>
  );
}
