// The library's rows, grouped by site. The row the arrow keys chose is marked (data-active) and
// its buttons act on the active tab: Insert into chat on a chat site, Copy skill context, Export
// for upload; a skill that needs the user has Review instead, and one whose findings are not all
// confirmed has Confirm.
import type { LibraryEntry, LibraryGroup } from './filter';
import { t } from '../../lib/i18n';
import { NAME_MAX, display } from '../../lib/render/display';
import { ExportNote } from '../shared/ExportControls';
import { ConfirmFindingsButton, HandOffButtons, type SkillActions } from '../shared/actions';
import { formatDate, insertedSize } from '../shared/format';
import type { ActiveTab } from './env';
import { Origin } from '../shared/Origin';
import { StatusChip } from '../shared/StatusChip';
import { attentionLook, showsStatus } from './words';

/** The id of a row's element, for scrolling the active one into view. */
export const rowId = (index: number) => `library-row-${index}`;

type RowProps = Omit<ListProps, 'groups' | 'active'> & { entry: LibraryEntry; index: number; active: boolean };

function Row({ entry, index, active, tab, actions, onReview, onPick }: RowProps) {
  const { item } = entry;
  const name = display(item.name, NAME_MAX);
  const look = attentionLook(item.attention);
  const size = insertedSize({ contextSize: item.size, tokens: item.tokens });
  const chip = (attention?: string) => (
    <span class={`chip chip-${look.tone}`} data-attention={attention}>
      <span class="chip-mark" aria-hidden="true">
        {look.mark}
      </span>
      {look.words}
    </span>
  );
  return (
    <li id={rowId(index)} class={`card lib-row${active ? ' lib-active' : ''}`} data-skill-url={item.url} data-active={active ? 'true' : undefined} onFocusCapture={() => onPick(index)}>
      <div class="card-head">
        <h3 class="card-title">{name}</h3>
        {showsStatus(item) && item.status !== null ? (
          <span class="lib-chips" data-attention={item.attention ?? 'none'}>
            <StatusChip status={item.status} />
            {item.attention === 'export-outdated' && chip()}
          </span>
        ) : (
          chip(item.attention ?? 'none')
        )}
      </div>
      {item.description && <p class="card-desc">{display(item.description, 300)}</p>}
      <ul class="card-meta">
        <li>{item.verifiedAt === null ? t('library_never_verified') : t('library_verified', formatDate(item.verifiedAt))}</li>
        {size && <li>{size}</li>}
      </ul>
      <ExportNote status={actions.exporter.exportOf(item.origin, item.url)} />
      <div class="actions">
        {item.usable && <HandOffButtons actions={actions} to={tab?.insert ?? null} origin={item.origin} url={item.url} name={item.name} />}
        {item.attention === 'needs-confirmation' && <ConfirmFindingsButton busy={actions.busy} name={name} primary onClick={() => void actions.confirmAt(item.origin, item.url)} />}
        {!item.usable && (
          <button type="button" class="btn-primary" onClick={() => onReview(entry)} data-action="review" aria-label={t('library_review_title', name)}>
            {t('library_review')}
          </button>
        )}
      </div>
    </li>
  );
}

interface ListProps {
  groups: LibraryGroup[];
  /** Index in the filtered list of the row the arrow keys chose. */
  active: number;
  tab: ActiveTab | null;
  actions: SkillActions;
  onReview: (entry: LibraryEntry) => void;
  onPick: (index: number) => void;
}

export function LibraryList({ groups, active, tab, actions, onReview, onPick }: ListProps) {
  let index = 0;
  return (
    <div class="lib-groups" data-testid="library-list">
      {groups.map((group) => {
        const headingId = `site-${group.origin}`;
        return (
          <section class="lib-site" key={group.origin} aria-labelledby={headingId} data-origin={group.origin}>
            <h2 id={headingId} class="lib-site-title" title={group.origin}>
              <span class="visually-hidden">{t('library_site_skills', group.host)}</span>
              <span aria-hidden="true">
                <Origin origin={group.host} />
              </span>
            </h2>
            <ul class="cards">
              {group.entries.map((entry) => {
                const i = index++;
                return <Row key={entry.item.url} entry={entry} index={i} active={i === active} tab={tab} actions={actions} onReview={onReview} onPick={onPick} />;
              })}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
