/**
 * Words that suggest the money is not clean, by the scheme they belong to: any of them flags the
 * payment SUSPECTED_FRAUD and holds it for review. Nigerian slang is written as it is typed (upper
 * case, no diacritics); a word that is also an everyday word or a name ("client", "pick up", "kola",
 * "roger", "igbo") is only here inside a phrase that gives it away.
 */
const list = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

const RISK_CLASSES: Record<string, string[]> = {
  internetFraud: list(
    'YAHOO, YAHOOZE, YAHOO PLUS, YAHOO BOY, YAHOO BOYS, G BOY, SAKAWA, MAGA, MUGU, CLIENT MONEY, ' +
      'CLIENT DON PAY, PICKER, PICKERS, PICKUP MONEY, PICK UP MONEY, WASH WASH, BLACK MONEY, SSD CHEMICAL, ' +
      'ROMANCE SCAM, YAHOO YAHOO, YAHOO FORMAT, DATING FORMAT, MUGU MONEY, MAGA MONEY, OYINBO CLIENT, ' +
      'CLIENT BILLING, HOOKUP FEE',
  ),
  // The trade's words that are everyday words alone ("format" a phone, "loading" airtime, "picking" goods, a designer's
  // "client"): only in the phrases that give them away.
  yahooTrade: list(
    'GBOY, G BOYS, GEE BOY, YAHOO GUY, YAHOO BOIZ, WIRE WIRE, HUSTLE KIT, BILLING FORMAT, CLIENT FORMAT, ' +
      'MILITARY FORMAT, ARMY FORMAT, GIFT CARD FORMAT, HOOKUP FORMAT, FORMAT FOR CLIENT, FORMAT FOR MAGA, ' +
      'MAGA DON PAY, MUGU DON PAY, CLIENT DON DROP, MAGA DON DROP, ' +
      'CLIENT LOADING, MAGA LOADING, MUGU LOADING, PICKING MONEY, PICKING FEE, PICKING CHARGE, PICKER FEE, ' +
      'LOGS FOR SALE, FB LOGS, FACEBOOK LOGS, CLIENT DROP, DROP FOR CLIENT',
  ),
  // Romance scams: the personas (a soldier abroad, an oil-rig engineer, a peacekeeper) that ask for or send money "for a flight" or "customs".
  romanceScams: list(
    'US ARMY, U S ARMY, USA ARMY, AMERICAN ARMY, AMERICAN SOLDIER, US SOLDIER, US MARINE, US MARINES, US NAVY, ' +
      'UN PEACEKEEPING, UN PEACE KEEPING, PEACEKEEPING MISSION, PEACE KEEPING MISSION, OIL RIG ENGINEER, ' +
      'OFFSHORE RIG, DEPLOYED IN SYRIA, SYRIA MISSION, CUSTOMS CLEARANCE FEE, LOVE SPELL, MONEY SPELL, ' +
      'SPELL CASTER',
  ),
  scamsAndHacking: list(
    'SCAM, SCAMMER, SCAMMED, FRAUD, FRAUDULENT, FRAUDSTER, HACK, HACKED, HACKER, PHISHING, SIM SWAP, CARDING, ' +
      'CLONED CARD, STOLEN, FAKE ALERT, FAKE CREDIT ALERT, FAKE CREDIT, FAKE TRANSFER, FAKE PAYMENT, ' +
      'FAKE RECEIPT, BET9JA CASHOUT, IMPERSONATION, FIXED MATCH, BVN UPDATE, BVN VERIFICATION FEE, ' +
      'ACCOUNT UPGRADE FEE, SHARE YOUR OTP, SEND YOUR OTP, ATM CARD BLOCKED',
  ),
  // Phishing in other wordings, recharge-card PIN scams and fake POS or bank alerts (a recharge card alone is airtime: bills).
  phishing: list(
    'BVN UPDATE FEE, BVN LINKAGE, BVN LINKING, NIN LINKAGE FEE, NIN UPDATE FEE, ACCOUNT UPGRADE, ' +
      'ACCOUNT RESTRICTION FEE, ACCOUNT BLOCKED, ACCOUNT REACTIVATION FEE, TOKEN UPDATE, SHARE YOUR PIN, ' +
      'SEND YOUR PIN, SEND ME THE PIN, SEND THE PIN, SEND PIN, ' +
      'RECHARGE CARD PIN, RECHARGE PIN, AIRTIME PIN, CARD PIN, ATM PIN, FAKE POS, POS SCAM, FAKE BANK ALERT, FAKE SMS, FAKE TELLER',
  ),
  // Pay to receive: a fee before a prize, a grant, a giveaway or a loan is paid out (a giveaway alone is a gift; a bank loan's processing fee is a bill).
  payToReceive: list(
    'PAY TO RECEIVE, PAY TO CLAIM, PAY BEFORE YOU RECEIVE, CLAIM YOUR PRIZE, CLAIM PRIZE, LUCKY WINNER, ' +
      'YOU HAVE WON, PROMO WINNER FEE, GIVEAWAY FEE, GIVEAWAY REGISTRATION, GIVEAWAY PROCESSING, ' +
      'GIVEAWAY ACTIVATION, GIVEAWAY CHARGES, CRYPTO GIVEAWAY, ' +
      'GRANT PROCESSING FEE, GRANT RELEASE FEE, LOAN APPROVAL FEE',
  ),
  advanceFee: list(
    '419ER, 419 SCAM, 419 FRAUD, 419 MONEY, ADVANCE FEE, RELEASE FEE, UNCLAIMED FUNDS, CONSIGNMENT BOX, ' +
      'UNBLOCK, CONTRACT APPROVAL, CONTRACT RELEASE, APPROVAL FEE, FUND RELEASE, FUNDS RELEASE, ' +
      'INHERITANCE FUND, INHERITANCE FEE, INHERITANCE RELEASE, UNLOCK INHERITANCE, UNLOCK YOUR INHERITANCE, ' +
      'UNLOCK MY INHERITANCE, CLEARANCE FEE',
  ),
  ponziAndRoi: list(
    'PONZI, MMM, DOUBLE YOUR MONEY, MONEY DOUBLING, DOUBLING, ROI, GUARANTEED RETURNS, GUARANTEED PROFIT, ' +
      'PYRAMID SCHEME, RECOMMIT, RECOMMITMENT, CBEX, LOOM MONEY, TWINKAS, MONEY MULTIPLICATION, GET RICH QUICK, ' +
      'DOUBLE MONEY, TRIPLE YOUR MONEY, FLIP YOUR MONEY, MONEY FLIP, CASH FLIP, DAILY ROI, WEEKLY ROI, ' +
      'DAILY PROFIT, 100 PERCENT RETURNS, ' +
      // Crypto "mining" that pays returns (a mining company's salary is a salary).
      'MINING RETURNS, MINING RETURN, MINING PROFIT, MINING PROFITS, MINING ROI, CLOUD MINING, CRYPTO MINING, ' +
      'BITCOIN MINING, BTC MINING, MINING PLATFORM, MINING INVESTMENT, MINING PLAN',
  ),
  // Fees for a job or an exam result that is sold, not earned: job-placement scams, leaked papers ("expo"), "miracle centres".
  jobAndExamRackets: list(
    'JOB PLACEMENT FEE, EMPLOYMENT FEE, EMPLOYMENT FORM FEE, RECRUITMENT FEE, JOB SLOT, EMPLOYMENT SLOT, ' +
      'APPOINTMENT LETTER FEE, VISA LOTTERY FEE, WAEC EXPO, NECO EXPO, JAMB EXPO, NABTEB EXPO, EXAM EXPO, ' +
      'WAEC RUNS, JAMB RUNS, NECO RUNS, EXAM RUNS, MIRACLE CENTRE, MIRACLE CENTER, ' +
      'UPGRADE JAMB SCORE, JAMB SCORE UPGRADE, RESULT UPGRADE',
  ),
  counterfeit: list(
    'COUNTERFEIT, FAKE DOLLARS, FAKE DOLLAR, FAKE NAIRA, FAKE CURRENCY, FAKE NOTES, FAKE CERTIFICATE, FAKE DOCUMENTS',
  ),
  // A loan app's harassment of a borrower's contacts, paid off under threat.
  loanAppHarassment: list(
    'WE WILL EXPOSE, EXPOSE YOU, YOUR CONTACTS, LOAN DEFAULTER, DEBT SHAMING, DEFAMATION MESSAGE',
  ),
  kidnapping: list(
    'RANSOM, KIDNAP, KIDNAPPED, KIDNAPPER, KIDNAPPERS, KIDNAPPING, ABDUCTOR, ABDUCTORS, ABDUCTION, ABDUCTED, HOSTAGE, BANDIT, BANDITS, BANDITRY',
  ),
  ritual: list('RITUAL, RITUALS, RITUALIST, RITUALISTS, MONEY RITUAL, BLOOD MONEY, HUMAN PARTS, HUMAN HEAD'),
  bribery: list(
    'BRIBE, BRIBERY, EGUNJE, KICKBACK, KICKBACKS, BROWN ENVELOPE, HUSH MONEY, CHOP CHOP, SETTLEMENT FOR POLICE, ROGER FOR POLICE',
  ),
  laundering: list('LAUNDER, LAUNDERING'),
  // Fund-recovery and "account reactivation" fees: the second sting of a scam, sold to its victims.
  recoveryScams: list(
    'RECOVERY FEE, FUND RECOVERY FEE, FUNDS RECOVERY FEE, RECOVER YOUR FUNDS, RECOVER MY FUNDS, ' +
      'REACTIVATION FEE, ACCOUNT REACTIVATION, DIPLOMATIC BAG, DIPLOMATIC BOX, ATM CARD DELIVERY FEE, ' +
      'PRIZE RELEASE, WINNING FEE, PRIZE CLAIM FEE',
  ),
  terrorFinancing: list(
    'TERRORISM, TERRORIST, TERRORISTS, BOKO HARAM, ISWAP, INSURGENT, INSURGENTS, INSURGENCY, JIHADIST, JIHADISTS, ARMS DEALER, GUN RUNNING, GUNRUNNING',
  ),
  trafficking: list(
    'TRAFFICKING, TRAFFICKER, TRAFFICKERS, HUMAN TRAFFICKING, CHILD TRAFFICKING, BABY FACTORY, BABY SELLING, ORGAN SALE, KIDNEY FOR SALE, SELL KIDNEY',
  ),
  oilTheft: list(
    'BUNKERING, OIL BUNKERING, ILLEGAL REFINERY, KPOFIRE, PIPELINE VANDAL, PIPELINE VANDALISM, STOLEN CRUDE',
  ),
  drugsArmsAndCults: list(
    'COCAINE, HEROIN, MKPURU MMIRI, CANNABIS, MARIJUANA, WEED, SKUNK, WRAP OF LOUD, WRAPS OF LOUD, ' +
      'WRAP OF IGBO, WRAPS OF IGBO, TRAMADOL, CODEINE, ROHYPNOL, NO PRESCRIPTION, WITHOUT PRESCRIPTION, ' +
      'CRYSTAL METH, COLORADO WRAP, AMMUNITION, AK47, PISTOL, CULT, CULTISM, CULTIST',
  ),
};

export const FRAUD_TERMS: string[] = Object.values(RISK_CLASSES).flat();

/**
 * Single words of one topic, so that a prompt that names the topic also catches its brands and slang:
 * "reject anything about betting" holds "sportybet payout". Not risky without such a prompt.
 */
export const TOPICS: string[][] = [
  [
    'BET',
    'BETS',
    'BETTING',
    'GAMBLING',
    'GAMBLE',
    'CASINO',
    'LOTTO',
    'LOTTERY',
    'POOLS',
    'STAKE',
    'BET9JA',
    'SPORTYBET',
    'BETKING',
    'NAIRABET',
    'MERRYBET',
    'BETWAY',
    'MSPORT',
    '1XBET',
    'BETNAIJA',
    'BANGBET',
    'BETBONANZA',
    'ACCESSBET',
    'SUREBET247',
    '22BET',
    'MELBET',
    'PARIPESA',
    'BETWINNER',
    'BET365',
    'LIVESCOREBET',
    'BETLAND',
    'BAYBET',
    'SUPABETS',
    'PREMIERBET',
    'ODDS',
    'ACCA',
    'ACCUMULATOR',
    'JACKPOT',
    'VIRTUALS',
    'AVIATOR',
    'BABAIJEBU',
    'PREMIERLOTTO',
    'CACA',
    'TETE',
  ],
  [
    'CRYPTO',
    'CRYPTOCURRENCY',
    'BITCOIN',
    'BTC',
    'USDT',
    'USDC',
    'ETH',
    'ETHEREUM',
    'BNB',
    'DOGE',
    'BINANCE',
    'BYBIT',
    'BITGET',
    'OKX',
    'KUCOIN',
    'LUNO',
    'QUIDAX',
    'ROQQU',
    'BUSHA',
    'YELLOWCARD',
    'P2P',
    'COIN',
    'COINS',
  ],
  // Alcohol and tobacco, by their kinds and the brands a Nigerian narration names ("Star lager", "Gulder", "Benson"):
  // "no payment for alcohol" holds "crate of Star lager".
  [
    'ALCOHOL',
    'ALCOHOLIC',
    'LIQUOR',
    'BOOZE',
    'SHAYO',
    'BEER',
    'BEERS',
    'LAGER',
    'STOUT',
    'WINE',
    'WINES',
    'WHISKY',
    'WHISKEY',
    'VODKA',
    'GIN',
    'BRANDY',
    'RUM',
    'TEQUILA',
    'CHAMPAGNE',
    'SCHNAPPS',
    'COGNAC',
    'PALMWINE',
    'OGOGORO',
    'BURUKUTU',
    'PITO',
    'GULDER',
    'HEINEKEN',
    'GOLDBERG',
    'BUDWEISER',
    'GUINNESS',
    'SMIRNOFF',
    'ORIJIN',
    'BACARDI',
    'HENNESSY',
    'MARTELL',
    'JAMESON',
    'DESPERADOS',
  ],
  [
    'CIGARETTE',
    'CIGARETTES',
    'CIGAR',
    'CIGARS',
    'TOBACCO',
    'SMOKE',
    'SMOKES',
    'SMOKING',
    'SHISHA',
    'HOOKAH',
    'VAPE',
    'VAPES',
    'VAPING',
    'SNUFF',
    'BENSON',
    'ROTHMANS',
    'MARLBORO',
    'DUNHILL',
    'ESSE',
  ],
  [
    'LOAN',
    'LOANS',
    'LENDER',
    'FAIRMONEY',
    'PALMCREDIT',
    'QUICKCREDIT',
    'RENMONEY',
    'AELLA',
    'BRANCH',
    'OKASH',
    'EASEMONI',
    'SOKOLOAN',
    'NEWCREDIT',
    'LCREDIT',
  ],
];
