/**
 * Why the server refused a call: its message (English, as the API wrote it) and the code and
 * values the API answered with it, by which the screens say it in the user's language
 * (docs/decisions/0023-languages.md, "Error codes").
 */
export interface Refusal {
  message: string;
  code?: string;
  params?: Record<string, string | number>;
}
