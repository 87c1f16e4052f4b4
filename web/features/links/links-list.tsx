import useSWR from 'swr';
import { Link } from 'react-router';
import type { LinkDto } from '../../../worker/links/links.schema';
import { fetcher } from '../../lib/api-client';
import { Spinner } from '../../components/ui/spinner';

/** /links: Number (from 1), From, To, Open. Errors are silent (spec); an empty list says No Links. */
export default function LinksList() {
  const { data, isLoading } = useSWR<LinkDto[]>('/api/link', fetcher, { onError: () => undefined });
  const rows = data ?? [];
  return (
    <div className="page">
      <div className="page-header">
        <h1>Links</h1>
        <Link className="btn btn-primary" to="/create">
          Create link
        </Link>
      </div>
      {isLoading ? (
        <Spinner />
      ) : (
        <div className="data-table">
          <div className="table-scroll">
            <table data-testid="links-table">
              <thead>
                <tr>
                  <th>Number</th>
                  <th>From</th>
                  <th>To</th>
                  <th>Open</th>
                </tr>
              </thead>
              <tbody>
                {rows.length === 0 ? (
                  <tr>
                    <td colSpan={4} className="table-empty">
                      No Links
                    </td>
                  </tr>
                ) : (
                  rows.map((link, i) => (
                    <tr key={link._id}>
                      <td>{i + 1}</td>
                      <td className="link-cell">{link.from}</td>
                      <td className="link-cell">{link.to}</td>
                      <td>
                        <Link className="btn btn-secondary btn-sm" to={`/detail/${link._id}`}>
                          Open
                        </Link>
                      </td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </div>
  );
}
