/**
 * Messages several areas answer, or that live beside a check rather than in an area's table. The
 * throw sites use these constants; worker/lib/error-codes.ts gives each its code.
 */
export const COMMON_MESSAGES = {
  userNotFound: 'User not found',
  managerNotFound: 'Manager not found',
  sessionNotFound: 'Session not found',
  linkNotFound: 'Link not found',
  keyNotFound: 'Key not found',
  notAllowedUser: 'You are not allowed to change this user',
  notAllowedDelete: 'You are not allowed to delete this user',
  cannotDeleteSelf: 'You cannot delete yourself',
  managerHasAgents: 'This manager still has agents: move or delete them first',
  cannotChangeOwnType: 'You cannot change your own user type',
  userHasTeam: 'This user has a team: move its users first',
  ownParent: 'A user cannot be its own parent',
  onlyAgentsHaveParent: 'Only agents and managers have a parent',
  alreadyVerified: 'This e-mail is already verified',
  chooseUser: 'Choose a user',
  subscriptionInactive: 'Your subscription is not active',
  teamSettingsManagers: "Only the team's manager can change the team's settings",
  vettingManagers: 'Only managers can check a broker at FMCSA',
  tooManyChecks: 'Too many checks; the daily check goes on by itself',
  fmcsaBudget: "Today's FMCSA budget is spent; the check runs again tomorrow",
  tooManyLinks: 'You are creating links too fast, please try again later',
  noShortCode: 'Could not create a short code, please try again',
  tooManyWrongPasswords: 'Too many wrong passwords, please try again later',
  bodyTooLarge: 'Request body is too large',
  importMeanwhile: 'Some of these brokers were saved meanwhile. Preview the file again',
  companyMoving: "This company's data is being moved to another database. Please try again in a minute.",
} as const;
