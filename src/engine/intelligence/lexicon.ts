/** What the rules analyser knows about Nigerian bank narrations. */

export interface Intent {
  intent: string;
  label: string;
  /** Words and phrases (upper case, matched on word boundaries) with their weight. */
  terms: [string, number][];
}

/** Specific intents, in the order that breaks ties. */
export const INTENTS: Intent[] = [
  { intent: 'rent', label: 'Rent', terms: [['RENT', 3], ['HOUSE RENT', 4], ['RENTAL', 3], ['LANDLORD', 3], ['ACCOMMODATION', 3], ['LEASE', 2], ['SERVICE CHARGE', 2], ['SHOP RENT', 4]] },
  { intent: 'salary', label: 'Salary', terms: [['SALARY', 4], ['SAL', 2], ['WAGES', 3], ['WAGE', 3], ['PAYROLL', 4], ['STIPEND', 3], ['PAYE', 2], ['BONUS', 2], ['ALLOWANCE', 2], ['13TH MONTH', 3]] },
  { intent: 'school_fees', label: 'School fees', terms: [['SCHOOL FEES', 5], ['SCHOOL FEE', 5], ['SCH FEES', 5], ['SCH FEE', 5], ['SCHOOL', 2], ['TUITION', 4], ['JSS1', 3], ['JSS2', 3], ['JSS3', 3], ['SSS1', 3], ['SSS2', 3], ['SSS3', 3], ['SS1', 3], ['SS2', 3], ['SS3', 3], ['PTA', 3], ['ACCEPTANCE FEE', 4], ['HOSTEL', 2], ['WAEC', 3], ['JAMB', 3], ['NECO', 3], ['TERM', 1]] },
  { intent: 'loan_repayment', label: 'Loan repayment', terms: [['LOAN REPAYMENT', 5], ['LOAN', 3], ['REPAYMENT', 3], ['REPAY', 3], ['INSTALLMENT', 3], ['INSTALMENT', 3], ['EMI', 2]] },
  { intent: 'refund', label: 'Refund', terms: [['REFUND', 4], ['REFUNDED', 4], ['REVERSAL', 3], ['REVERSED', 3], ['CHARGEBACK', 4], ['MONEY BACK', 3], ['RETURN', 1]] },
  { intent: 'purchase', label: 'Purchase', terms: [['POS', 2], ['PURCHASE', 3], ['WEB PURCHASE', 4], ['ORDER', 3], ['INVOICE', 3], ['INV', 2], ['GOODS', 3], ['SUPPLY', 2], ['SUPPLIES', 2], ['PAYMENT FOR', 2], ['SALES', 2], ['CHECKOUT', 3], ['DELIVERY', 2], ['MARKET', 1]] },
  { intent: 'savings', label: 'Savings', terms: [['SAVINGS', 4], ['SAVE', 2], ['AJO', 4], ['ESUSU', 4], ['THRIFT', 4], ['CONTRIBUTION', 3], ['COOPERATIVE', 3], ['COOP', 3]] },
  { intent: 'bills', label: 'Bills', terms: [['ELECTRICITY', 4], ['NEPA', 4], ['PHCN', 4], ['PREPAID', 2], ['DSTV', 4], ['GOTV', 4], ['STARTIMES', 4], ['AIRTIME', 4], ['DATA', 2], ['BILL', 3], ['BILLS', 3], ['WATER', 2], ['INTERNET', 3]] },
  { intent: 'upkeep', label: 'Upkeep', terms: [['UPKEEP', 4], ['POCKET MONEY', 4], ['FEEDING', 3], ['FOOD', 2], ['SUPPORT', 2], ['GIFT', 3], ['BIRTHDAY', 3], ['WEDDING', 3], ['ASSISTANCE', 2], ['HELP', 1]] },
  { intent: 'dues', label: 'Dues', terms: [['DUES', 4], ['LEVY', 4], ['ASSOCIATION', 2], ['MEMBERSHIP', 3], ['SUBSCRIPTION', 3]] },
  { intent: 'medical', label: 'Medical', terms: [['HOSPITAL', 4], ['MEDICAL', 4], ['DRUGS', 3], ['PHARMACY', 3], ['CLINIC', 3], ['TREATMENT', 3]] },
  { intent: 'donation', label: 'Donation', terms: [['TITHE', 4], ['OFFERING', 4], ['DONATION', 4], ['CHURCH', 2], ['MOSQUE', 2], ['ZAKAT', 4], ['SADAQAH', 4], ['CHARITY', 3]] },
  { intent: 'transport', label: 'Transport', terms: [['TRANSPORT', 4], ['FARE', 3], ['TRANSPORTATION', 4], ['FUEL', 3], ['LOGISTICS', 3], ['DISPATCH', 2]] },
];

/** Words that say only "money moved": a generic transfer, not a purpose. */
export const TRANSFER_TERMS = ['NIP', 'TRF', 'TRANSFER', 'TRSF', 'FT', 'FRM', 'FROM', 'MOB', 'MOBILE', 'USSD', 'INWARD', 'NEFT', 'IFO', 'SEND', 'SENT', 'CREDIT', 'IB', 'WEB', 'APP'];

/** Words that suggest the money is not clean. */
export const FRAUD_TERMS = ['SCAM', 'FRAUD', 'HACK', 'HACKED', 'STOLEN', 'YAHOO', 'CHOP', 'WASH', 'LAUNDER', 'BET9JA CASHOUT', 'FAKE ALERT'];

/** Channel and bank codes that carry no meaning of their own. */
export const NOISE_TERMS = new Set([
  'GTB', 'GTBANK', 'UBA', 'FBN', 'FIRSTBANK', 'ZENITH', 'ZIB', 'ACCESS', 'ACC', 'WEMA', 'FCMB', 'FIDELITY', 'STANBIC', 'STERLING', 'UNION',
  'ECOBANK', 'POLARIS', 'KEYSTONE', 'OPAY', 'PALMPAY', 'KUDA', 'MONIEPOINT', 'TO', 'BY', 'FOR', 'OF', 'THE', 'AND', 'MY', 'YOUR', 'REF', 'NO',
  'PAYMENT', 'PAY', 'PYMT', 'PMT', 'VIA',
]);

export const MONTHS = new Set(['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'SEPT', 'OCT', 'NOV', 'DEC', 'JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER']);
