// What only a signed-in person needs, loaded after sign-in: the layout (menu, banners, its
// dialog), SWR, the API client, the area guard. The login page's first load stays small
// (issue budget: 110 KB of JS, gzip; BENCHMARKS.md, "SPA").
import { Layout } from './layout';
import { AppSwr } from './swr';

export { DefaultRedirect, Guard } from './guard';
export { Logout } from './layout';

export function SignedInLayout() {
  return (
    <AppSwr>
      <Layout />
    </AppSwr>
  );
}
