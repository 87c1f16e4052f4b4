/** The screens translate by the code and values (docs/decisions/0023-languages.md, "Error codes"). */
export interface Refusal {
  message: string;
  code?: string;
  params?: Record<string, string | number>;
}
