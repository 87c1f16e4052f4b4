import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Link, NavLink, useParams } from 'react-router';
import './help.css';

interface Topic {
  slug: string;
  title: string;
  summary: string;
  body: ReactNode;
}

const TOPICS: Topic[] = [
  {
    slug: 'filters',
    title: 'Broker filters',
    summary: 'Mark broker companies for your team: blocked, preferred, slow pay and more.',
    body: (
      <>
        <p>
          A broker filter marks a broker company with a <strong>type</strong> (for example Blocked or Preferred) and a comment, for the users and MCs you
          choose. Filters belong to your team: the manager and the manager's agents.
        </p>
        <h2 id="create">Creating a filter</h2>
        <ol>
          <li>
            Add at least one MC on the <Link to="/lines">Lines</Link> page first. Without one, Create Filter answers{' '}
            <em>Add your MC in Lines tab before creating filters</em>.
          </li>
          <li>
            On <strong>Broker Filtering</strong> press <strong>Create Filter</strong>, enter the company name and choose a type.
          </li>
          <li>
            Choose who it is for: <strong>Only Me</strong>, <strong>Team with Me</strong> or <strong>Team without Me</strong>. For the team you can tick the
            users one by one and tick <em>Also for users added later</em> so agents who join afterwards get it too.
          </li>
          <li>
            Choose the MCs it applies to, or <strong>All MC</strong>.
          </li>
          <li>
            Optionally add the broker's phones or e-mails under Contacts. With <em>Only on these contacts</em> the filter applies only when the broker calls or
            writes from one of them. A contact still typed in the box is added when you save.
          </li>
        </ol>
        <p>
          The form checks, in this order: <em>Name is empty</em>, <em>Select the type</em>, <em>Select minimum 1 mc or All MC</em>.
        </p>

        <h2 id="verification">Verification</h2>
        <p>
          A filter added by an agent starts <strong>Unverified (Added by Agent)</strong>. Only a manager verifies: when the manager opens it and saves, the
          button reads <strong>Verify and Update Info</strong>. Until then the filter applies to its creator only. When an agent changes its own filter later,
          it needs verifying again.
        </p>

        <h2 id="list">The Filters List</h2>
        <ul>
          <li>Newest first, with search, sortable columns and pages of 10 to 50.</li>
          <li>
            <strong>Contacts</strong> shows <em>All</em> when the filter has none, or the first contact followed by “, ...”.
          </li>
          <li>
            <strong>Users</strong> shows <em>Only Me</em>, <em>Team and Me</em> or <em>Team without Me</em>, seen from the creator.
          </li>
          <li>
            <strong>Status</strong>: <em>Unverified</em> until a manager verifies; then <em>Active</em> or <em>Disabled</em>. Disable and Activate switch a
            filter off and on without deleting it.
          </li>
          <li>
            Managers can edit and delete every filter of the team. Agents can edit and delete their own <em>Only Me</em> filters; other filters open in a
            view-only window.
          </li>
          <li>A search answers at most the newest 500 matching filters; narrow it by name, type or MC to see older ones.</li>
        </ul>

        <h2 id="search">Searching</h2>
        <p>
          The search panel finds filters by company name (suggestions appear as you type), type, MC and <strong>Show Filters for</strong>: Only Me, Team with
          Me, Team without Me and Contacts Only. Untick <strong>For All MCs</strong> to search chosen MCs; at least one is needed (<em>Choose minimum 1 MC</em>
          ). <strong>Reset</strong> clears the panel.
        </p>

        <h2 id="links">Opening Broker Filtering from a link</h2>
        <p>
          <code>/companyFilters/create/Company Name/+1 (555) 123-4567</code> opens a new filter with the name and the phone filled in (brackets and dashes are
          removed from the phone). <code>/companyFilters/search/Company Name</code> searches for the name. Closing the window returns to Broker Filtering.
        </p>

        <h2 id="types">Filter types</h2>
        <p>
          Every team starts with five types: <TypeChip color="#d32f2f">Blocked</TypeChip> <TypeChip color="#2e7d32">Preferred</TypeChip>{' '}
          <TypeChip color="#ef6c00">Slow pay</TypeChip> <TypeChip color="#1565c0">Check first</TypeChip> <TypeChip color="#6b7280">Note</TypeChip>. On{' '}
          <strong>My Filters</strong> a manager renames them and changes their colours; agents see the team's names and colours.
        </p>
      </>
    ),
  },
  {
    slug: 'lines',
    title: 'Lines and MCs',
    summary: 'Your carrier MCs, the phone line each one uses, and its e-mail template.',
    body: (
      <>
        <p>
          The <strong>Lines</strong> page holds your MCs (carrier entries). Each MC uses one of your phone lines, 1 to 6, and has an e-mail subject and content
          used when you write to a broker about a load.
        </p>
        <h2 id="add">Adding an MC</h2>
        <ul>
          <li>
            A <strong>manager</strong> types the MC's name (<em>Name is empty</em> otherwise).
          </li>
          <li>
            An <strong>agent</strong> picks one of its manager's MCs (<em>Select MC</em> otherwise), and sets its own line and templates.
          </li>
          <li>
            Everyone picks a line for the new MC (<em>Select line for new MC</em> otherwise).
          </li>
        </ul>
        <h2 id="line-numbers">Line numbers</h2>
        <p>
          Each of your lines belongs to one MC at a time. A line another MC already uses is greyed out; to move it, first give that MC a different line.
          Choosing a line for an MC replaces the line it had. Press <strong>Save Settings</strong> to keep changes to lines, names and templates; two MCs can
          swap lines in one save. Your lines are your own: an agent's line 1 has nothing to do with the manager's line 1.
        </p>
        <h2 id="dat">Show in DAT</h2>
        <p>
          <strong>Visible</strong> or <strong>Hidden</strong> decides whether the MC is offered on the load board. The switch takes effect at once.
        </p>
        <h2 id="delete">Deleting an MC</h2>
        <p>
          Deleting asks for confirmation. When a manager deletes an MC, the agents' settings for it are removed and filters no longer list it, all at once. An
          agent deleting an MC removes it from its own list only.
        </p>
      </>
    ),
  },
];

function TypeChip({ color, children }: { color: string; children: ReactNode }) {
  return (
    <span className="help-chip" style={{ background: color }}>
      {children}
    </span>
  );
}

/** /help/{topic}: the product's help, public so links from any screen open it. */
export default function Help() {
  const { topic } = useParams();
  const current = topic ? TOPICS.find((t) => t.slug === topic) : undefined;
  // the topic names the tab, after the route's plain "Help"
  useDocumentTitle(current ? `${current.title} · Help` : 'Help');
  return (
    <div className="help">
      <header className="help-top">
        <Link to="/help" className="help-brand">
          FreightDesk Help
        </Link>
        <Link to="/" className="help-back">
          Back to the app
        </Link>
      </header>
      <div className="help-layout">
        <nav className="help-nav" aria-label="Help topics">
          <NavLink to="/help" end>
            All topics
          </NavLink>
          {TOPICS.map((t) => (
            <NavLink key={t.slug} to={`/help/${t.slug}`}>
              {t.title}
            </NavLink>
          ))}
        </nav>
        <article className="help-article">
          {current ? (
            <>
              <h1>{current.title}</h1>
              {current.body}
            </>
          ) : (
            <>
              <h1>{topic ? 'Topic not found' : 'Help'}</h1>
              {topic && <p className="muted">There is no help topic called “{topic}”. Pick one below.</p>}
              <ul className="help-topics">
                {TOPICS.map((t) => (
                  <li key={t.slug}>
                    <Link to={`/help/${t.slug}`}>{t.title}</Link>
                    <span className="muted"> {t.summary}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </article>
      </div>
    </div>
  );
}
