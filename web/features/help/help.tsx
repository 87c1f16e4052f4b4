import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, NavLink, useParams } from 'react-router';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-help.json';
import { useDocumentTitle } from '../../lib/use-document-title';
import './help.css';

// this screen's English texts (the login page's first bundle has none of them)
addEnglish(english);

interface Topic {
  slug: string;
  /** Catalogue keys. */
  title: string;
  summary: string;
  body: ReactNode;
}

/** The tags the help's paragraphs use (<Trans>): emphasis, code, and the links they name. */
const TAGS = { strong: <strong />, em: <em />, code: <code />, lines: <Link to="/lines" /> };
const P = ({ k }: { k: string }) => (
  <p>
    <Trans i18nKey={k} components={TAGS} />
  </p>
);
const Li = ({ k }: { k: string }) => (
  <li>
    <Trans i18nKey={k} components={TAGS} />
  </li>
);
function H2({ id, k }: { id: string; k: string }) {
  const { t } = useTranslation();
  return <h2 id={id}>{t(k)}</h2>;
}

const TOPICS: Topic[] = [
  {
    slug: 'filters',
    title: 'help.filters.title',
    summary: 'help.filters.summary',
    body: (
      <>
        <P k="help.filters.intro" />
        <H2 id="create" k="help.filters.createHeading" />
        <ol>
          <Li k="help.filters.create1" />
          <Li k="help.filters.create2" />
          <Li k="help.filters.create3" />
          <Li k="help.filters.create4" />
          <Li k="help.filters.create5" />
        </ol>
        <P k="help.filters.checks" />

        <H2 id="verification" k="help.filters.verificationHeading" />
        <P k="help.filters.verification" />

        <H2 id="list" k="help.filters.listHeading" />
        <ul>
          <Li k="help.filters.list1" />
          <Li k="help.filters.list2" />
          <Li k="help.filters.list3" />
          <Li k="help.filters.list4" />
          <Li k="help.filters.list5" />
          <Li k="help.filters.list6" />
        </ul>

        <H2 id="search" k="help.filters.searchHeading" />
        <P k="help.filters.search" />

        <H2 id="links" k="help.filters.linksHeading" />
        <P k="help.filters.links" />

        <H2 id="types" k="help.filters.typesHeading" />
        <p>
          <Trans
            i18nKey="help.filters.types"
            components={{
              strong: <strong />,
              // the five types a team starts with, in their default colours
              blocked: <TypeChip color="#d32f2f" />,
              preferred: <TypeChip color="#2e7d32" />,
              slow: <TypeChip color="#ef6c00" />,
              check: <TypeChip color="#1565c0" />,
              note: <TypeChip color="#6b7280" />,
            }}
          />
        </p>
      </>
    ),
  },
  {
    slug: 'lines',
    title: 'help.lines.title',
    summary: 'help.lines.summary',
    body: (
      <>
        <P k="help.lines.intro" />
        <H2 id="add" k="help.lines.addHeading" />
        <ul>
          <Li k="help.lines.addManager" />
          <Li k="help.lines.addAgent" />
          <Li k="help.lines.addEveryone" />
        </ul>
        <H2 id="line-numbers" k="help.lines.lineNumbersHeading" />
        <P k="help.lines.lineNumbers" />
        <H2 id="dat" k="help.lines.datHeading" />
        <P k="help.lines.dat" />
        <H2 id="delete" k="help.lines.deleteHeading" />
        <P k="help.lines.delete" />
      </>
    ),
  },
];

/** A filter type's chip; its name comes from the paragraph's text (<Trans>). */
function TypeChip({ color, children }: { color: string; children?: ReactNode }) {
  return (
    <span className="help-chip" style={{ background: color }}>
      {children}
    </span>
  );
}

/** /help/{topic}: the product's help, public so links from any screen open it. */
export default function Help() {
  const { t } = useTranslation();
  const { topic } = useParams();
  const current = topic ? TOPICS.find((x) => x.slug === topic) : undefined;
  // the topic names the tab, after the route's plain "Help"
  useDocumentTitle(current ? t('help.tabTitle', { topic: t(current.title) }) : t('titles.help'));
  return (
    <div className="help">
      <header className="help-top">
        <Link to="/help" className="help-brand">
          {t('help.brand')}
        </Link>
        <Link to="/" className="help-back">
          {t('help.back')}
        </Link>
      </header>
      <div className="help-layout">
        <nav className="help-nav" aria-label={t('help.nav')}>
          <NavLink to="/help" end>
            {t('help.allTopics')}
          </NavLink>
          {TOPICS.map((x) => (
            <NavLink key={x.slug} to={`/help/${x.slug}`}>
              {t(x.title)}
            </NavLink>
          ))}
        </nav>
        <article className="help-article">
          {current ? (
            <>
              <h1>{t(current.title)}</h1>
              {current.body}
            </>
          ) : (
            <>
              <h1>{topic ? t('help.notFound') : t('titles.help')}</h1>
              {topic && <p className="muted">{t('help.noTopic', { topic })}</p>}
              <ul className="help-topics">
                {TOPICS.map((x) => (
                  <li key={x.slug}>
                    <Link to={`/help/${x.slug}`}>{t(x.title)}</Link>
                    <span className="muted"> {t(x.summary)}</span>
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
