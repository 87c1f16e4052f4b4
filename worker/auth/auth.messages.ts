// No imports: the login page takes these without zod or the phone metadata.

/**
 * The one map of the account fields' messages (spec section 5): registration, password reset,
 * and the users area (`USER_MESSAGES` adds its own to these). Shared with the screens.
 */
export const MESSAGES = {
  nameEmpty: 'Name is Empty',
  nameInvisible: 'Name contains invisible characters',
  emailEmpty: 'Email is Empty',
  emailInvalid: 'Email is not valid',
  emailTaken: 'This e-mail is already registered',
  passwordEmpty: 'Password is Empty',
  passwordShort: 'Password minimum 6 symbols',
  country: 'Select your country',
  phone: 'Wrong phone number',
  repeatEmpty: 'Repeat password is Empty',
  mismatch: "Passwords don't match",
} as const;
