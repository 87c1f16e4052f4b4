/** scripts/web-session.mjs: the web app's stored session, from what POST /api/auth/login answers. */
export function webSession(login: { accessToken: string; userId: string; userType: string; name: string; email: string; isSubscriptionActive: boolean }): {
  token: string;
  userId: string;
  userType: string;
  userName: string;
  userEmail: string;
  isSubscriptionActive: boolean;
};
