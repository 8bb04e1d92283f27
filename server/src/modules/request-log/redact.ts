// Keeps credentials out of the request log: values of password, token and secret fields in JSON and form bodies, and
// webhook signing secrets wherever they appear. Works on text that may have been cut short mid-value.

/** Field names whose values are credentials, in any case and with or without separators (access_token, AccessToken). */
const secretKey = '(?:password|passwd|secret|client_?secret|access_?token|refresh_?token|token|api_?key)';

const jsonValue = new RegExp(`("${secretKey}"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*(?:"|$)`, 'gi');
const formValue = new RegExp(`((?:^|&)${secretKey}(?:%5B[^=&]*)?=)[^&]*`, 'gi');
const webhookSecret = /whsec_[A-Za-z0-9+/=]+/g;

export const redacted = '[redacted]';

/** One scan that most bodies (orders, products, lists) fail, so they are not scanned again for each pattern. */
const anyCredential = /passw|secret|token|api_?key|whsec_/i;

export function redact(text: string, contentType: string | undefined): string {
  if (!anyCredential.test(text)) return text;
  let out = text;
  if (contentType?.includes('x-www-form-urlencoded')) out = out.replace(formValue, `$1${redacted}`);
  else out = out.replace(jsonValue, `$1"${redacted}"`);
  return out.replace(webhookSecret, redacted);
}
