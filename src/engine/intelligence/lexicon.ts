/** What the rules analyser knows about the purposes Nigerian bank narrations state. */

export interface Intent {
  intent: string;
  label: string;
  /** Words and phrases (upper case, matched on word boundaries) with their weight. */
  terms: [string, number][];
}

/** Specific intents, in the order that breaks ties. English, abbreviations, pidgin, Yoruba, Igbo and Hausa. */
export const INTENTS: Intent[] = [
  { intent: 'rent', label: 'Rent', terms: [['RENT', 3], ['HOUSE RENT', 4], ['RENTAL', 3], ['RNT', 3], ['LANDLORD', 3], ['ACCOMMODATION', 3], ['LEASE', 2], ['TENANCY', 3], ['TENANT', 2], ['SERVICE CHARGE', 2], ['SVC CHG', 2], ['SHOP RENT', 4], ['CAUTION FEE', 3], ['AGENCY FEE', 3], ['AGENCY', 1], ['SELF CONTAIN', 2], ['APARTMENT', 2], ['OWO ILE', 4], ['EGO ULO', 4], ['ULO', 2], ['KUDIN HAYA', 4], ['HAYA', 3]] },
  { intent: 'salary', label: 'Salary', terms: [['SALARY', 4], ['SALARIES', 4], ['SAL', 2], ['WAGES', 3], ['WAGE', 3], ['PAYROLL', 4], ['STIPEND', 3], ['PAYE', 2], ['BONUS', 2], ['ALLOWANCE', 2], ['ALLAWEE', 3], ['ARREARS', 2], ['IPPIS', 4], ['OVERTIME', 3], ['13TH MONTH', 3], ['OWO OSU', 4], ['ALBASHI', 4]] },
  { intent: 'school_fees', label: 'School fees', terms: [['SCHOOL FEES', 5], ['SCHOOL BUS', 3], ['SCHOOL FEE', 5], ['SCH FEES', 5], ['SCH FEE', 5], ['SCH', 2], ['SCHOOL', 2], ['FEES', 2], ['TUITION', 4], ['TUIT', 3], ['JSS1', 3], ['JSS2', 3], ['JSS3', 3], ['SSS1', 3], ['SSS2', 3], ['SSS3', 3], ['SS1', 3], ['SS2', 3], ['SS3', 3], ['PRY', 2], ['PTA', 5], ['ACCEPTANCE FEE', 4], ['HOSTEL', 2], ['WAEC', 3], ['JAMB', 3], ['NECO', 3], ['GCE', 3], ['TEXTBOOKS', 3], ['TEXTBOOK', 3], ['UNIFORM', 2], ['LESSON', 2], ['TERM', 1], ['SEMESTER', 2], ['UNIVERSITY', 2], ['OWO ILEEWE', 5], ['ILEEWE', 4], ['EGO AKWUKWO', 5], ['AKWUKWO', 4], ['KUDIN MAKARANTA', 5], ['MAKARANTA', 4]] },
  { intent: 'loan_repayment', label: 'Loan repayment', terms: [['LOAN REPAYMENT', 5], ['LOAN', 3], ['LN', 2], ['REPAYMENT', 3], ['REPAY', 3], ['REPYMT', 3], ['RPYMT', 3], ['INSTALLMENT', 3], ['INSTALMENT', 3], ['EMI', 2], ['DEBT', 3], ['OWE', 3], ['BORROWED', 3], ['BORROW', 2], ['BASHI', 4], ['UGWO', 4]] },
  { intent: 'refund', label: 'Refund', terms: [['REFUND', 6], ['REFUNDED', 6], ['REIMBURSEMENT', 5], ['REIMBURSE', 5], ['REVERSAL', 5], ['REVERSED', 5], ['CHARGEBACK', 6], ['MONEY BACK', 4], ['OVERPAYMENT', 2], ['RETURNED', 2]] },
  { intent: 'purchase', label: 'Purchase', terms: [['POS', 2], ['PURCHASE', 3], ['WEB PURCHASE', 4], ['ORDER', 3], ['INVOICE', 3], ['INV', 2], ['GOODS', 3], ['SUPPLY', 2], ['SUPPLIES', 2], ['PAYMENT FOR', 2], ['SALES', 2], ['SALE', 2], ['BOUGHT', 3], ['BUY', 1], ['CHECKOUT', 3], ['DELIVERY', 2], ['MARKET', 1], ['PROVISIONS', 3], ['CARTONS', 2], ['BAGS', 2], ['ITEMS', 2], ['MATERIALS', 2], ['FABRIC', 3], ['ANKARA', 3], ['ASO EBI', 3], ['CEMENT', 3], ['TILES', 3], ['PAINT', 2], ['GENERATOR', 3], ['PHONE', 2], ['LAPTOP', 3], ['RICE', 2], ['FOR LAND', 3], ['DESIGN', 2], ['CONTRACT', 2], ['SERVICES', 2], ['WORKMANSHIP', 3], ['REPAIRS', 2], ['JUMIA', 3], ['KONGA', 3], ['SHOPRITE', 3], ['SPAR', 3], ['OJA', 3], ['AHIA', 3], ['KASUWA', 3], ['KAYA', 3], ['ASO', 2], ['CRATE', 2], ['BASKET', 2], ['DOZEN', 2], ['BUNDLE', 2], ['SACK', 2], ['RAM', 3], ['GOAT', 3], ['COW', 3], ['P2P', 2], ['PAYSTACK SETTLEMENT', 3], ['PSTK SETTLEMENT', 3], ['FLUTTERWAVE SETTLEMENT', 3], ['FLW SETTLEMENT', 3], ['MERCHANT SETTLEMENT', 3]] },
  { intent: 'savings', label: 'Savings', terms: [['SAVINGS', 4], ['SAVING', 3], ['SAVE', 2], ['AJO', 4], ['ESUSU', 4], ['ISUSU', 4], ['ADASHE', 4], ['THRIFT', 4], ['CONTRIBUTION', 3], ['CONTRI', 3], ['COOPERATIVE', 3], ['COOP', 3], ['PIGGYVEST', 3], ['COWRYWISE', 3]] },
  { intent: 'bills', label: 'Bills', terms: [['ELECTRICITY', 4], ['ELECT', 3], ['LIGHT BILL', 4], ['NEPA', 4], ['PHCN', 4], ['IKEDC', 4], ['EKEDC', 4], ['AEDC', 4], ['IBEDC', 4], ['EEDC', 4], ['PHED', 4], ['KEDCO', 4], ['PREPAID', 2], ['TOKEN', 1], ['METER', 2], ['DSTV', 4], ['GOTV', 4], ['STARTIMES', 4], ['CABLE', 2], ['AIRTIME', 4], ['RECHARGE', 3], ['DATA', 2], ['MTN', 2], ['GLO', 2], ['AIRTEL', 2], ['9MOBILE', 2], ['BILL', 2], ['BILLS', 2], ['BLL', 2], ['WATER', 2], ['INTERNET', 3], ['SPECTRANET', 3], ['WASTE', 2], ['LAWMA', 3], ['ELECTRIC', 3], ['WUTA', 3]] },
  { intent: 'upkeep', label: 'Upkeep', terms: [['UPKEEP', 4], ['UPKIP', 4], ['POCKET MONEY', 4], ['FEEDING', 3], ['FOOD', 2], ['FOODSTUFF', 3], ['CHOP MONEY', 4], ['SUPPORT', 2], ['ASSISTANCE', 2], ['HELP', 1], ['KIDS', 2], ['CHILDREN', 2], ['OUNJE', 3], ['NRI', 3], ['ABINCI', 3], ['SOUP', 2]] },
  { intent: 'dues', label: 'Dues', terms: [['DUES', 4], ['LEVY', 4], ['ASSOCIATION', 2], ['MEMBERSHIP', 3], ['SUBSCRIPTION', 2], ['CLUB', 2], ['GYM', 2], ['ALUMNI', 2], ['PRACTISING FEE', 3], ['ESTATE', 1]] },
  { intent: 'medical', label: 'Medical', terms: [['HOSPITAL', 4], ['HOSP', 4], ['MEDICAL', 4], ['MED', 3], ['DRUGS', 3], ['DRUG', 3], ['MEDICINE', 3], ['PHARMACY', 3], ['CLINIC', 3], ['TREATMENT', 3], ['LAB', 3], ['SURGERY', 4], ['ANTENATAL', 4], ['SCAN', 2], ['CONSULTATION', 3], ['HMO', 3], ['DENTAL', 3], ['ILE IWOSAN', 5], ['IWOSAN', 4], ['ASIBITI', 4]] },
  { intent: 'donation', label: 'Donation', terms: [['TITHE', 4], ['OFFERING', 4], ['DONATION', 4], ['CHURCH', 2], ['MOSQUE', 2], ['ZAKAT', 4], ['ZAKKA', 4], ['SADAQAH', 4], ['SADAKA', 4], ['CHARITY', 3], ['THANKSGIVING', 4], ['HARVEST', 2], ['BUILDING FUND', 4], ['SEED', 2], ['WELFARE', 2], ['MASJID', 3]] },
  { intent: 'transport', label: 'Transport', terms: [['TRANSPORT', 4], ['FARE', 3], ['TRANSPORTATION', 4], ['FUEL', 3], ['PETROL', 3], ['LOGISTICS', 3], ['DISPATCH', 2], ['WAYBILL', 3], ['BOLT', 3], ['UBER', 3], ['RIDE', 2], ['TAXI', 3], ['KEKE', 3], ['OKADA', 3], ['FLIGHT', 3], ['MOTO', 3], ['MOTA', 3], ['BUS', 3], ['BRT', 3], ['CAR HIRE', 4], ['UGBO', 3]] },
  { intent: 'gift', label: 'Gift', terms: [['GIFT', 3], ['BIRTHDAY', 3], ['BDAY', 3], ['HBD', 3], ['WEDDING', 3], ['ANNIVERSARY', 3], ['THANK YOU', 3], ['THANKS', 3], ['THANK', 2], ['THNX', 3], ['TNX', 3], ['THX', 3], ['APPRECIATION', 4], ['CONGRATS', 3], ['CONGRATULATIONS', 3], ['CHRISTMAS', 3], ['XMAS', 3], ['NEW YEAR', 3], ['SALLAH', 3], ['EID', 3], ['MUBARAK', 2], ['SMALL SOMETHING', 4], ['EBUN', 3], ['OJO IBI', 3], ['E SE', 3], ['DAALU', 3], ['ONYINYE', 2], ['EKERESIMESI', 3], ['KYAUTA', 3], ['NA GODE', 3], ['EKELE', 3]] },
];

/**
 * Terms that say when or how much rather than what for, so they decide only when nothing more
 * specific is said. An occasion (1) gives way to a purpose ("ram for sallah" is a purchase, "xmas
 * bonus" a salary); a share or a payment word (2) gives way to the occasion or the purpose it is
 * for ("wedding contribution" is a gift, "ugwo ulo", the house payment, is rent). Other terms are 0.
 */
export const DEFERRING_TERMS = new Map<string, number>([
  ...['BIRTHDAY', 'BDAY', 'HBD', 'WEDDING', 'ANNIVERSARY', 'CHRISTMAS', 'XMAS', 'NEW YEAR', 'SALLAH', 'EID', 'MUBARAK', 'EKERESIMESI', 'OJO IBI'].map((t) => [t, 1] as const),
  ...['CONTRIBUTION', 'CONTRI', 'UGWO'].map((t) => [t, 2] as const),
]);

/** The generic intent: readable, plausible, but no specific purpose (issue 16). */
export const GENERAL_PAYMENT = { intent: 'payment', label: 'General payment' } as const;

/** Words that name a payment without saying what for: the general payment intent. */
export const GENERIC_TERMS = new Set([
  'PAYMENT', 'PAYMENTS', 'PAY', 'PYMT', 'PMT', 'PYMNT', 'DEPOSIT', 'TOP', 'TOPUP', 'FUND', 'FUNDS', 'FUNDING', 'CASH', 'MONEY', 'BALANCE', 'BAL',
  'PART', 'FULL', 'REMAINING', 'TEST', 'TESTING', 'SETTLEMENT', 'SETTLE', 'MISC', 'MISCELLANEOUS', 'OTHERS', 'GENERAL', 'OWO', 'EGO', 'KUDI', 'KUDIN',
]);

/** Words that say only "money moved": a transfer with no stated purpose. */
export const TRANSFER_TERMS = new Set([
  'NIP', 'NIPS', 'TRF', 'TRSF', 'TFR', 'TRANSFER', 'TRANS', 'FT', 'FIP', 'FRM', 'FROM', 'MOB', 'MOBILE', 'USSD', 'INWARD', 'NEFT', 'IFO', 'SEND', 'SENT', 'CREDIT',
  'IB', 'WEB', 'APP', 'ONLINE', 'INTERBANK', 'INSTANT', 'SELF', 'OWN',
]);

/** Words that suggest the money is not clean. */
export const FRAUD_TERMS = ['SCAM', 'SCAMMER', 'FRAUD', 'FRAUDULENT', 'HACK', 'HACKED', 'HACKER', 'STOLEN', 'YAHOO', 'LAUNDER', 'LAUNDERING', 'PONZI', 'FAKE ALERT', 'BET9JA CASHOUT', 'MMM', 'CARDING', 'BRIBE', 'UNBLOCK', 'DOUBLE YOUR MONEY'];

/**
 * Words of one topic, so that a prompt that names the topic also catches its brands and slang:
 * "reject anything about betting" holds "sportybet payout".
 */
export const TOPICS: string[][] = [
  ['BET', 'BETS', 'BETTING', 'GAMBLING', 'GAMBLE', 'CASINO', 'LOTTO', 'LOTTERY', 'POOLS', 'STAKE', 'BET9JA', 'SPORTYBET', 'BETKING', 'NAIRABET', 'MERRYBET', 'BETWAY', 'MSPORT', '1XBET'],
  ['CRYPTO', 'CRYPTOCURRENCY', 'BITCOIN', 'BTC', 'USDT', 'ETH', 'ETHEREUM', 'BINANCE', 'BYBIT', 'LUNO', 'QUIDAX', 'ROQQU', 'P2P', 'COIN', 'COINS'],
  ['LOAN', 'LOANS', 'LENDER', 'FAIRMONEY', 'PALMCREDIT', 'QUICKCREDIT', 'RENMONEY', 'AELLA', 'BRANCH'],
];

export const MONTHS = new Set(['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'SEPT', 'OCT', 'NOV', 'DEC', 'JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER']);
