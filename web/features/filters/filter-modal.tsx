import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NO_TYPE } from '../../../worker/filters/filters.schema';
import { Button } from '../../components/ui/button';
import { ConfirmDialog, Modal } from '../../components/ui/dialog';
import { ErrorText, Field } from '../../components/ui/field';
import { useUnsavedChanges } from '../../components/unsaved-changes';
import { messageText } from '../../i18n/errors';
import type { FilterPayload, FilterTypeDto, TeamUserDto } from './api';
import { FilterActivity } from './filter-activity';
import { AudienceFields, ContactFields, McFields, TypeSelect } from './filter-fields';
import { type FilterDraft, type Mc, type ModalMode, useFilterForm } from './use-filter-form';
import { VettingPanel } from './vetting';

const TITLES = { create: 'filterModal.titleCreate', update: 'filterModal.titleUpdate', view: 'filterModal.titleView' } as const satisfies Record<
  ModalMode,
  string
>;

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
  const { t } = useTranslation();
  const { mode, me } = props;
  const form = useFilterForm(props);
  const { filter, details } = form;
  const readOnly = mode === 'view';
  const commentId = useId();
  const aliasesId = useId();
  const dup = props.duplicate;
  const rejected = filter?.rejectedReason ?? null;
  const saveLabel =
    mode === 'create'
      ? t('filterModal.saveCreate')
      : me.isLead && filter && !filter.isVerified
        ? t('filterModal.saveVerify')
        : rejected !== null
          ? t('filterModal.saveResubmit')
          : t('filterModal.saveUpdate');
  // Unsaved edits are never dropped silently (rule 0130): Cancel, Escape and the close button
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
  const usersLegend = filter && filter.creator._id !== me.id ? t('filterModal.usersMe', { name: filter.creator.name }) : t('filterModal.users');

  return (
    <Modal
      open
      wide
      onOpenChange={(open) => !open && close()}
      title={t(TITLES[mode])}
      footer={
        <>
          <a className="filter-help-link" href="/help/filters" target="_blank" rel="noopener">
            {t('filterModal.help')}
          </a>
          {!readOnly && (
            <Button type="submit" form="filter-form" disabled={props.saving}>
              {saveLabel}
            </Button>
          )}
          <Button variant="ghost" onClick={close}>
            {readOnly ? t('filterModal.close') : t('filterModal.cancel')}
          </Button>
        </>
      }
    >
      <form id="filter-form" className="filter-form" onSubmit={form.submit} noValidate>
        {rejected !== null && (
          <p className="notice filter-rejected" data-testid="rejected-note">
            <span className="label-pill pill-bad">{t('filterModal.rejected')}</span>{' '}
            {me.isLead ? t('filterModal.rejectedLead', { reason: rejected }) : t('filterModal.rejectedAgent', { reason: rejected })}
          </p>
        )}
        {filter && !filter.isVerified && rejected === null && (
          <p className="notice filter-unverified" data-testid="unverified-note">
            <span className="label-pill pill-warn">{t('filterModal.unverified')}</span> {me.isLead ? t('filterModal.addedLead') : t('filterModal.addedAgent')}
          </p>
        )}
        <fieldset disabled={readOnly} className="filter-fields">
          <div className="filter-grid">
            <Field label={t('filterModal.companyName')} value={details.name} onChange={(e) => details.setName(e.target.value)} autoComplete="off" />
            <TypeSelect
              label={t('filterModal.type')}
              value={details.type}
              onChange={details.setType}
              types={props.types}
              none={{ value: NO_TYPE, label: t('filterModal.selectType') }}
            />
          </div>
          <div className="filter-grid">
            <Field
              label={t('filterModal.mcNumber')}
              value={details.mcNumber}
              onChange={(e) => details.setMcNumber(e.target.value)}
              inputMode="numeric"
              placeholder={t('filterModal.mcExample')}
            />
            <Field
              label={t('filterModal.dotNumber')}
              value={details.dotNumber}
              onChange={(e) => details.setDotNumber(e.target.value)}
              inputMode="numeric"
              placeholder={t('filterModal.dotExample')}
            />
          </div>
          <div className="field">
            <label htmlFor={aliasesId}>{t('filterModal.aliases')}</label>
            <textarea
              id={aliasesId}
              rows={2}
              value={details.aliases}
              onChange={(e) => details.setAliases(e.target.value)}
              placeholder={t('filterModal.aliasesHint')}
            />
          </div>
          <div className="field">
            <label htmlFor={commentId}>{t('filterModal.comment')}</label>
            <textarea id={commentId} rows={2} value={details.comment} onChange={(e) => details.setComment(e.target.value)} />
          </div>
          <AudienceFields users={form.users} legend={usersLegend} />
          <McFields mc={form.mc} />
          <ContactFields contacts={form.contacts} readOnly={readOnly} />
          <label className="check-line">
            <input type="checkbox" checked={details.isVisible} onChange={(e) => details.setIsVisible(e.target.checked)} />
            {t('filterModal.active')}
          </label>
        </fieldset>
        <ErrorText>{messageText(form.problem)}</ErrorText>
        {dup && (
          <p className="error-text filter-duplicate" role="alert" data-testid="duplicate-note">
            {dup.message}.{' '}
            {dup.filterId && props.onOpenDuplicate && (
              <Button variant="secondary" onClick={() => props.onOpenDuplicate!({ filterId: dup.filterId!, name: dup.name ?? '' })}>
                {t('filterModal.openIt')}
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
        title={t('filterModal.discardTitle')}
        message={t('filterModal.discardMessage')}
        confirmLabel={t('filterModal.discard')}
        onConfirm={() => {
          setAskDiscard(false);
          props.onClose();
        }}
      />
      {unsaved.dialog}
    </Modal>
  );
}
