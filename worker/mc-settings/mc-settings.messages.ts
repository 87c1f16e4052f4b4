import { COMMON_MESSAGES } from '../lib/common-messages';
import { defineMessages } from '../lib/messages';

/**
 * The Lines screen's messages (spec section 5): the MC settings and their e-mail templates, and
 * the team's phone lines and dialer (worker/team). No zod: the extension's dialer takes it too.
 */
export const LINES_MESSAGES = defineMessages('lines', {
  nameEmpty: [400, 'Name is empty', 'a lead, name blank'],
  selectMc: [400, 'Select MC', 'an agent, no `parentMc`'],
  selectLine: [400, 'Select line for new MC', '`lines` empty'],
  oneLine: [400, 'Select one line per MC', 'more than one line'],
  lineForEvery: [400, 'Select a line for every MC', '`lines: []`'],
  mcNotFound: [404, 'MC not found', "an MC id that is not the caller's (for an agent: not one of its manager's MCs)"],
  alreadyAdded: [409, 'This MC is already in your list', 'an agent adding the same manager MC twice'],
  added: 'MC added',
  saved: 'Settings saved',
  deleted: 'MC deleted',
  shown: 'MC is shown in DAT',
  hidden: 'MC is hidden in DAT',
  managerNotFound: COMMON_MESSAGES.managerNotFound,
  lineTaken: [409, 'Line {{line}} is already used by {{name}}', 'another of your MCs has the line (`params`: `line`, `name`)'],
  linesChanged: [409, 'The lines changed meanwhile, please try again'],
  // the e-mail templates' unknown placeholders (email-template.schema.ts; the list is PLACEHOLDER_LIST)
  unknownSubjectOne: [
    400,
    'Unknown placeholder {{names}} in the e-mail subject. Use {origin}, {destination}, {pickupDate}, {broker}, {rate}, {reference}, {mcName}, {userName}',
  ],
  unknownSubjectMany: [
    400,
    'Unknown placeholders {{names}} in the e-mail subject. Use {origin}, {destination}, {pickupDate}, {broker}, {rate}, {reference}, {mcName}, {userName}',
  ],
  unknownContentOne: [
    400,
    'Unknown placeholder {{names}} in the e-mail content. Use {origin}, {destination}, {pickupDate}, {broker}, {rate}, {reference}, {mcName}, {userName}',
  ],
  unknownContentMany: [
    400,
    'Unknown placeholders {{names}} in the e-mail content. Use {origin}, {destination}, {pickupDate}, {broker}, {rate}, {reference}, {mcName}, {userName}',
  ],
  // the team's phone lines (worker/team)
  teamSaved: 'Team phone settings saved',
  line: [400, 'Lines are 1 to 6'],
  tooManyLines: [400, 'A team has at most 6 lines'],
  lineTwice: [400, 'Line {{line}} is listed twice'],
  callerNumber: [400, 'Line {{line}}: enter the caller number in international format, like +1 312 555 0100'],
  label: [400, 'Line {{line}}: the label is at most {{max}} characters'],
  window: [400, 'The window is 1 to 48 hours'],
  markers: [400, 'Markers are on (true) or off (false)'],
  dialer: [400, "Dialer must be 'tel', 'dialpad' or 'template'"],
  templateEmpty: [400, "Enter the phone system's URL template"],
  templateTo: [400, 'The URL template needs {to}, the number to call'],
  templateLong: [400, 'The URL template is at most {{max}} characters'],
  templateScheme: [400, "The URL template must start with https:// or a phone app's own scheme (like aircall: or callto:)"],
  templateUnknown: [400, 'Unknown placeholder {{name}} in the URL template: use {to}, {from} or {line}'],
});
