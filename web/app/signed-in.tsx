// What only a signed-in person needs, loaded after sign-in: the layout (menu, banners, its
// dialog), SWR, the API client, the area guard. The login page's first load stays small
// (docs/decisions/0024-login-bundle.md).
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
