/**
 * Words that suggest the money is not clean, by the scheme they belong to: any of them flags the
 * payment SUSPECTED_FRAUD and holds it for review. Nigerian slang is written as it is typed (upper
 * case, no diacritics); a word that is also an everyday word or a name ("client", "pick up", "kola",
 * "roger", "igbo") is only here inside a phrase that gives it away.
 */
const list = (text: string) => text.split(',').map((t) => t.trim()).filter(Boolean);

const RISK_CLASSES: Record<string, string[]> = {
  internetFraud: list('YAHOO, YAHOO PLUS, YAHOO BOY, YAHOO BOYS, G BOY, SAKAWA, MAGA, MUGU, CLIENT MONEY, CLIENT DON PAY, PICKER, PICKERS, PICKUP MONEY, PICK UP MONEY, WASH WASH, BLACK MONEY, SSD CHEMICAL, ROMANCE SCAM'),
  scamsAndHacking: list('SCAM, SCAMMER, SCAMMED, FRAUD, FRAUDULENT, FRAUDSTER, HACK, HACKED, HACKER, PHISHING, SIM SWAP, CARDING, CLONED CARD, STOLEN, FAKE ALERT, FAKE CREDIT ALERT, FAKE CREDIT, FAKE TRANSFER, FAKE PAYMENT, FAKE RECEIPT, BET9JA CASHOUT, IMPERSONATION, FIXED MATCH'),
  advanceFee: list('419ER, 419 SCAM, 419 FRAUD, 419 MONEY, ADVANCE FEE, RELEASE FEE, UNCLAIMED FUNDS, CONSIGNMENT BOX, UNBLOCK, CONTRACT APPROVAL, CONTRACT RELEASE, APPROVAL FEE, FUND RELEASE, FUNDS RELEASE, INHERITANCE FUND, CLEARANCE FEE'),
  ponziAndRoi: list('PONZI, MMM, DOUBLE YOUR MONEY, MONEY DOUBLING, DOUBLING, ROI, GUARANTEED RETURNS, GUARANTEED PROFIT, PYRAMID SCHEME, RECOMMIT, RECOMMITMENT, CBEX, LOOM MONEY, TWINKAS'),
  kidnapping: list('RANSOM, KIDNAP, KIDNAPPED, KIDNAPPER, KIDNAPPERS, KIDNAPPING, ABDUCTION, ABDUCTED, HOSTAGE, BANDIT, BANDITS, BANDITRY'),
  ritual: list('RITUAL, RITUALIST, MONEY RITUAL, BLOOD MONEY, HUMAN PARTS'),
  bribery: list('BRIBE, BRIBERY, EGUNJE, KICKBACK, KICKBACKS, BROWN ENVELOPE, HUSH MONEY'),
  laundering: list('LAUNDER, LAUNDERING'),
  drugsArmsAndCults: list('COCAINE, HEROIN, MKPURU MMIRI, CANNABIS, MARIJUANA, WEED, SKUNK, WRAP OF LOUD, WRAPS OF LOUD, WRAP OF IGBO, WRAPS OF IGBO, AMMUNITION, AK47, PISTOL, CULT, CULTISM, CULTIST'),
};

export const FRAUD_TERMS: string[] = Object.values(RISK_CLASSES).flat();

/**
 * Single words of one topic, so that a prompt that names the topic also catches its brands and slang:
 * "reject anything about betting" holds "sportybet payout". Not risky without such a prompt.
 */
export const TOPICS: string[][] = [
  [
    'BET', 'BETS', 'BETTING', 'GAMBLING', 'GAMBLE', 'CASINO', 'LOTTO', 'LOTTERY', 'POOLS', 'STAKE', 'BET9JA', 'SPORTYBET', 'BETKING', 'NAIRABET', 'MERRYBET', 'BETWAY', 'MSPORT', '1XBET',
    'BETNAIJA', 'BANGBET', 'BETBONANZA', 'ACCESSBET', 'SUREBET247', '22BET', 'MELBET', 'PARIPESA', 'BETWINNER', 'BET365', 'LIVESCOREBET', 'BETLAND', 'BAYBET', 'SUPABETS', 'PREMIERBET',
    'ODDS', 'ACCA', 'ACCUMULATOR', 'JACKPOT', 'VIRTUALS', 'AVIATOR', 'BABAIJEBU', 'PREMIERLOTTO', 'CACA', 'TETE',
  ],
  ['CRYPTO', 'CRYPTOCURRENCY', 'BITCOIN', 'BTC', 'USDT', 'USDC', 'ETH', 'ETHEREUM', 'BNB', 'DOGE', 'BINANCE', 'BYBIT', 'BITGET', 'OKX', 'KUCOIN', 'LUNO', 'QUIDAX', 'ROQQU', 'BUSHA', 'YELLOWCARD', 'P2P', 'COIN', 'COINS'],
  ['LOAN', 'LOANS', 'LENDER', 'FAIRMONEY', 'PALMCREDIT', 'QUICKCREDIT', 'RENMONEY', 'AELLA', 'BRANCH', 'OKASH', 'EASEMONI', 'SOKOLOAN', 'NEWCREDIT', 'LCREDIT'],
];
