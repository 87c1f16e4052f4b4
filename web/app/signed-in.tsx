// What only a signed-in person needs, loaded after sign-in: the layout (menu, banners, its
// dialog), SWR, the API client, the area guard. The login page's first load stays small
// (docs/decisions/0024-login-bundle.md).
import { addEnglish } from '../i18n';
import english from '../i18n/en-common.json';
import { Layout } from './layout';
import { AppSwr } from './swr';

// the shared components' English (dialogs, request states, unsaved changes): every signed-in screen uses them
addEnglish(english);

export { DefaultRedirect, Guard } from './guard';
export { Logout } from './layout';
export { AREA_SCREENS } from './screens';

export function SignedInLayout() {
  return (
    <AppSwr>
      <Layout />
    </AppSwr>
  );
}
