export interface Bank {
  code: string;
  name: string;
}

/**
 * Banks the simulated provider pays out to: commercial, merchant and non-interest banks with their
 * 3-digit CBN codes, then microfinance banks, payment service banks and fintechs with their NIP codes.
 */
export const BANKS: readonly Bank[] = [
  { code: '044', name: 'Access Bank' },
  { code: '063', name: 'Access Bank (Diamond)' },
  { code: '023', name: 'Citibank Nigeria' },
  { code: '559', name: 'Coronation Merchant Bank' },
  { code: '050', name: 'Ecobank Nigeria' },
  { code: '070', name: 'Fidelity Bank' },
  { code: '011', name: 'First Bank of Nigeria' },
  { code: '214', name: 'First City Monument Bank' },
  { code: '103', name: 'Globus Bank' },
  { code: '058', name: 'Guaranty Trust Bank' },
  { code: '030', name: 'Heritage Bank' },
  { code: '301', name: 'Jaiz Bank' },
  { code: '082', name: 'Keystone Bank' },
  { code: '303', name: 'Lotus Bank' },
  { code: '107', name: 'Optimus Bank' },
  { code: '104', name: 'Parallex Bank' },
  { code: '076', name: 'Polaris Bank' },
  { code: '105', name: 'PremiumTrust Bank' },
  { code: '101', name: 'Providus Bank' },
  { code: '106', name: 'Signature Bank' },
  { code: '221', name: 'Stanbic IBTC Bank' },
  { code: '068', name: 'Standard Chartered Bank' },
  { code: '232', name: 'Sterling Bank' },
  { code: '100', name: 'SunTrust Bank' },
  { code: '302', name: 'TAJ Bank' },
  { code: '102', name: 'Titan Trust Bank' },
  { code: '032', name: 'Union Bank of Nigeria' },
  { code: '033', name: 'United Bank for Africa' },
  { code: '215', name: 'Unity Bank' },
  { code: '035', name: 'Wema Bank' },
  { code: '057', name: 'Zenith Bank' },
  { code: '565', name: 'Carbon' },
  { code: '50211', name: 'Kuda Microfinance Bank' },
  { code: '50515', name: 'Moniepoint Microfinance Bank' },
  { code: '999992', name: 'OPay' },
  { code: '999991', name: 'PalmPay' },
  { code: '51310', name: 'Sparkle Microfinance Bank' },
  { code: '566', name: 'VFD Microfinance Bank' },
  { code: '090110', name: 'VFD Microfinance Bank (NIP)' },
  { code: '120001', name: '9PSB (9mobile Payment Service Bank)' },
  { code: '120002', name: 'HopePSB' },
  { code: '120003', name: 'MoMo PSB' },
  { code: '120004', name: 'SmartCash PSB' },
  { code: '50126', name: 'Eyowo' },
  { code: '090267', name: 'Kuda (NIP)' },
];

const BY_CODE = new Map(BANKS.map((bank) => [bank.code, bank]));

export function findBank(code: string): Bank | undefined {
  return BY_CODE.get(code);
}

/**
 * A bank as people read it: its name from the list the sandbox serves (`GET /v1/banks`), with the
 * code they typed: "Guaranty Trust Bank (058)". A code not on the list stays "bank 058".
 */
export function bankName(code: string): string {
  const bank = findBank(code);
  return bank ? `${bank.name} (${code})` : `bank ${code}`;
}
