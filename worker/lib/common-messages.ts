import { defineMessages } from './messages';

/**
 * Messages any call may answer. The login page's catalogue has them (`messages.<code>`), so their
 * codes are bare like its own (worker/auth/auth.messages.ts).
 */
export const GENERAL_MESSAGES = defineMessages('', {
  notAllowed: [403, 'You are not allowed to do this'],
  notFound: [404, 'Not found'],
  tooManyRequests: [429, 'Too many requests, please try again later'],
  somethingWrong: [500, 'Something went wrong'],
  notConfigured: [500, 'The server is not configured', 'the deployment has no `JWT_SECRET`'],
});

/** Messages several areas answer, or that the access rules and limits answer (`common.<key>`). */
export const COMMON_MESSAGES = defineMessages('common', {
  userNotFound: [404, 'User not found'],
  managerNotFound: [404, 'Manager not found'],
  sessionNotFound: [404, 'Session not found'],
  linkNotFound: [404, 'Link not found'],
  keyNotFound: [404, 'Key not found'],
  notAllowedUser: [403, 'You are not allowed to change this user'],
  notAllowedDelete: [403, 'You are not allowed to delete this user'],
  cannotDeleteSelf: [400, 'You cannot delete yourself'],
  managerHasAgents: [409, 'This manager still has agents: move or delete them first'],
  cannotChangeOwnType: [400, 'You cannot change your own user type'],
  userHasTeam: [409, 'This user has a team: move its users first'],
  ownParent: [400, 'A user cannot be its own parent'],
  onlyAgentsHaveParent: [400, 'Only agents and managers have a parent'],
  alreadyVerified: [400, 'This e-mail is already verified'],
  chooseUser: [400, 'Choose a user'],
  subscriptionInactive: [403, 'Your subscription is not active'],
  filterTypesAgents: [403, 'Agents cannot edit filter types'],
  teamSettingsManagers: [403, "Only the team's manager can change the team's settings"],
  vettingManagers: [403, 'Only managers can check a broker at FMCSA'],
  tooManyChecks: [429, 'Too many checks; the daily check goes on by itself'],
  fmcsaBudget: [429, "Today's FMCSA budget is spent; the check runs again tomorrow"],
  tooManyLinks: [429, 'You are creating links too fast, please try again later', 'more than 60 links by one user in an hour (`LIMITS.linkCreatePerUser`)'],
  noShortCode: [409, 'Could not create a short code, please try again'],
  tooManyWrongPasswords: [429, 'Too many wrong passwords, please try again later'],
  bodyTooLarge: [413, 'Request body is too large'],
  badCursor: [
    400,
    'This page of the list is out of date: go back to the first page',
    "a paged list's cursor that is not one of this view (another sort or search) or does not parse",
  ],
  importMeanwhile: [409, 'Some of these brokers were saved meanwhile. Preview the file again'],
  companyMoving: [
    503,
    "This company's data is being moved to another database. Please try again in a minute.",
    'a change while the company moves to another database',
  ],
});
