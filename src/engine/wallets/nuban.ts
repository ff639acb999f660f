const WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];

/**
 * The CBN NUBAN check digit over a 3-digit bank code and a 9-digit serial.
 * @example nubanCheckDigit('035', '000000001') // → '?'
 */
export function nubanCheckDigit(bankCode: string, serial: string): string {
  const digits = `${bankCode}${serial}`;
  if (!/^\d{12}$/.test(digits)) throw new RangeError('bank code must be 3 digits and serial 9 digits');
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * WEIGHTS[i]!;
  return String((10 - (sum % 10)) % 10);
}

/** True when the 10-digit account number carries the right check digit for the 3-digit bank code. */
export function isValidNuban(accountNumber: string, bankCode: string): boolean {
  if (!/^\d{10}$/.test(accountNumber) || !/^\d{3}$/.test(bankCode)) return false;
  return nubanCheckDigit(bankCode, accountNumber.slice(0, 9)) === accountNumber[9];
}

export function makeNuban(bankCode: string, serial: string): string {
  return `${serial}${nubanCheckDigit(bankCode, serial)}`;
}

/**
 * The check-digit rule for any institution code: codes are left-padded to the 6 digits of the
 * 2020 NUBAN revision and weighted 3,7,3 over code + serial. For a 3-digit CBN code the three
 * leading zeros add nothing, so this is exactly the classic rule above.
 */
export function isValidNubanForCode(accountNumber: string, institutionCode: string): boolean {
  if (!/^\d{10}$/.test(accountNumber) || !/^\d{3,6}$/.test(institutionCode)) return false;
  const digits = `${institutionCode.padStart(6, '0')}${accountNumber.slice(0, 9)}`;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * [3, 7, 3][i % 3]!;
  return String((10 - (sum % 10)) % 10) === accountNumber[9];
}
