// The session the web app keeps in localStorage ('userData') after a login, built from what
// POST /api/auth/login answers: the tests and benchmarks that open a screen signed in put it there.
export const webSession = (login) => ({
  token: login.accessToken,
  userId: login.userId,
  userType: login.userType,
  userName: login.name,
  userEmail: login.email,
  isSubscriptionActive: login.isSubscriptionActive,
});
