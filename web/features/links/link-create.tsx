import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { mutate } from 'swr';
import type { LinkDto } from '../../../worker/links/links.schema';
import { isLoggedOut, post } from '../../lib/api-client';

/**
 * /create: one input, Enter submits, then the new link's detail. The spec keeps errors silent
 * (no toast); the field still says why nothing happened, so the user is never left guessing.
 */
export default function LinkCreate() {
  const navigate = useNavigate();
  const [from, setFrom] = useState('');
  const [hint, setHint] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setHint(null);
    try {
      const link = await post<LinkDto>('/api/link/generate', { from });
      await mutate('/api/link');
      navigate(`/detail/${link._id}`);
    } catch (err) {
      if (!isLoggedOut(err)) setHint(err instanceof Error ? err.message : 'Something went wrong');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="page narrow">
      <h1>Create link</h1>
      <form onSubmit={submit} className="card form" aria-label="Create link">
        <div className="field">
          <label htmlFor="link-from">Enter Link</label>
          <input id="link-from" type="text" placeholder="write your link" value={from} onChange={(e) => setFrom(e.target.value)} autoFocus aria-describedby="link-hint" />
          <div id="link-hint" className={hint ? 'field-hint field-hint-bad' : 'field-hint'} aria-live="polite">
            {busy ? 'Creating…' : (hint ?? 'Press Enter to shorten it.')}
          </div>
        </div>
      </form>
    </div>
  );
}
