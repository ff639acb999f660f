import { FAMILY_WORDS } from './nigerian-words.js';

/**
 * Fraud by its shape, not by one writer's words: scams and crimes announce themselves by form as much
 * as by slang. Each shape is a rule a reader can review, with the look-alikes it leaves alone. The
 * narration is read as its words in upper case, spaced (" FEE TO RELEASE MY PRIZE "), and as written
 * in upper case for what words drop ("50%").
 */
const alt = (list: string) =>
  list
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .join('|');
const anyOf = (list: string) => new RegExp(String.raw` (?:${alt(list)}) `);

/** What a scam promises to hand over once a fee is paid. */
const GAINS = anyOf(
  'PRIZE, PRIZES, WINNINGS, WINNING, REWARD, REWARDS, GRANT, LOAN, PARCEL, PACKAGE, CONSIGNMENT, FUNDS, FUND, ' +
    'PROFIT, PROFITS, INHERITANCE, COMPENSATION, PAYOUT, AWARD, LOTTERY, JACKPOT, BOX, CASHBACK, AIRDROP, BONUS, ' +
    'SALARY, JOB, ATM CARD',
);
/** Paying to set it free. */
const RELEASING = anyOf(
  'RELEASE, RELEASED, UNLOCK, UNLOCKING, UNBLOCK, ACTIVATE, ACTIVATION, REACTIVATE, REACTIVATION, UPGRADE, ' +
    'CLAIM, CLAIMING, REDEEM, DISBURSE, DISBURSEMENT, CLEAR, CLEARANCE',
);
/** A bank's withdrawal charge and a clearing agent's fee are lawful: neither is here. */
const FEES = anyOf('FEE, FEES, CHARGE, CHARGES, CODE, TAX');
/** "Fee to receive", "pay before you claim": money first, the larger sum after. */
const FEE_BEFORE = new RegExp(
  ` (?:${alt('FEE, FEES, CHARGE, CHARGES, PAY, PAYMENT, DEPOSIT')}) (?:(?:TO|BEFORE|B4|SO|YOU|U|I|WE|CAN|CA) ` +
    `)+(?:${alt('RECEIVE, CLAIM, WITHDRAW, UNLOCK, RELEASE, ACTIVATE, GET THE, GET YOUR, GET MY')}) `,
);
/** Government and its channels: a real duty or levy, cleared through the state, is a bill. */
const OFFICIAL = anyOf(
  'NCS, NIGERIA CUSTOMS SERVICE, CUSTOMS DUTY, IMPORT DUTY, DUTY, PAAR, FORM M, REMITA, FIRS, ASYCUDA, CLEARING AGENT',
);

/** A rate per period: "50% in 7 days", "10% daily", "30 percent weekly". */
const RATE = new RegExp(
  String.raw`(\d+(?:\.\d+)?) ?(?:%|PERCENT|PCT)\s*(?:PROFIT|RETURNS?|ROI|INTEREST|GAIN)?\s*` +
    String.raw`(?:IN|WITHIN|EVERY|PER|AFTER|EACH|A)?\s*(\d+)?\s*` +
    String.raw`(HOURS?|HRS?|H|DAYS?|DAILY|WEEKS?|WEEKLY|WKS?|MONTHS?|MONTHLY|MTHS?)\b`,
);
const DAYS_IN: [RegExp, number][] = [
  [/^H/, 1 / 24],
  [/^(?:DAY|DAILY)/, 1],
  [/^(?:WEEK|WK)/, 7],
  [/^(?:MONTH|MTH)/, 30],
];
/** A multiple of the stake: "x2", "2x", "3 times", "double". */
const MULTIPLE = / (?:X ?[2-9]|[2-9] ?X|[2-9] TIMES|DOUBLE|DOUBLED|TRIPLE|TRIPLED)(?= )/;
/** What is staked: "double room" and "return ticket x2" stake nothing. */
const STAKED = anyOf('INVEST, INVESTMENT, INVESTED, RETURNS, PROFIT, PROFITS, ROI, CAPITAL, STAKE');
/** A rate that is charged, not promised: a loan's interest, a discount, a tax, a commission. */
const CHARGED = anyOf('LOAN, LOANS, REPAYMENT, PENALTY, LATE, OVERDUE, DISCOUNT, OFF, VAT, TAX, COMMISSION');
/** A thrift pays out what its members put in, in turn: "ajo 5k collect 60k". */
const THRIFT = anyOf('AJO, ESUSU, OSUSU, ADASHE, THRIFT, CONTRIBUTION, COOPERATIVE, COOP, CONTRIBUTORS');
const GUARANTEED = new RegExp(
  String.raw` (?:GUARANTEED|GUARANTEE|ASSURED|SURE|FIXED) (?:\w+ )?` +
    String.raw`(?:RETURN|RETURNS|PROFIT|PROFITS|PAYOUT|ROI|INCOME|GAIN|GAINS)(?= )|` +
    String.raw` (?:RETURNS?|PROFITS?|ROI) (?:IS |ARE )?(?:GUARANTEED|ASSURED)(?= )`,
);
/** "Send 20k receive 200k": a stake and a larger sum back. */
const STAKE_BACK =
  /(\d+(?:\.\d+)?) ?(K|M)?\b[^\d]{0,25}?\b(?:RECEIVE|GET|COLLECT|RETURNS?|GIVES?|BECOMES?|TURNS? TO|EARN|PAYS?)\b[^\d]{0,12}?(\d+(?:\.\d+)?) ?(K|M)?\b/;
const amountOf = (n: string, scale: string | undefined) => Number(n) * (scale === 'K' ? 1e3 : scale === 'M' ? 1e6 : 1);

/** Secrecy: "don't tell anyone", "keep it between us", "delete this chat". A surprise for an occasion keeps its secret innocently. */
const SECRECY = new RegExp(
  String.raw` (?:(?:DONT|DO NOT|NO|NEVER|NOT) (?:TELL|INFORM|SHOW|DISCLOSE|MENTION)|TELL NO ?(?:ONE|BODY)|` +
    String.raw`NOBODY (?:MUST|SHOULD|GO) KNOW|KEEP (?:IT |THIS |AM |DIS |THE \w+ )?` +
    String.raw`(?:SECRET|QUIET|CONFIDENTIAL|BETWEEN US|OFF THE RECORD)|` +
    String.raw`BETWEEN (?:US|YOU AND ME|U AND ME|U AND I)|DELETE (?:THIS|THE|DIS|AFTER|ALL)|NO QUESTIONS) `,
);
const OCCASION = anyOf('SURPRISE, BIRTHDAY, BDAY, ANNIVERSARY, PARTY, PROPOSAL, WEDDING, XMAS, CHRISTMAS, VALENTINE');
/** Urgency with a threat: "pay now or your account will be blocked". */
const THREAT = new RegExp(
  String.raw` (?:OR|ELSE|BEFORE|OTHERWISE|IF NOT)\b.{0,40}` +
    String.raw`\b(?:BLOCKED|BLOCK|SUSPENDED|DEACTIVATED|FROZEN|FREEZE|FORFEIT|FORFEITED|CANCELLED|ARREST|` +
    String.raw`ARRESTED|JAIL|EXPOSE|EXPOSED|LOSE IT|LOST FOREVER|CLOSED|DELETED)(?= )`,
);
const URGENT =
  / (?:URGENT|URGENTLY|NOW|TODAY|IMMEDIATELY|ASAP|WITHIN \d+|IN \d+ (?:HOURS?|HRS?|MINS?|MINUTES?)|\d+ ?HRS?|\d+ ?HOURS?) /;

/** Paying for what cannot be bought: a score, a grade, a certificate, a place. A result checker is bought lawfully. */
const BUYING = anyOf(
  'BUY, BUYING, BOUGHT, SORT, SORTING, SORTED, UPGRADE, UPGRADING, INCREASE, BOOST, FIX, FIXING, SECURE, SECURING, GUARANTEED, GUARANTEE',
);
/** "Grade A eggs" is bought: a grade only in the plural. */
const UNBUYABLE = anyOf(
  'SCORE, SCORES, GRADES, RESULT, RESULTS, CGPA, GPA, MARKS, ADMISSION, CERTIFICATE, DEGREE, DIPLOMA, NYSC DISCHARGE, EXEMPTION LETTER',
);
const LAWFUL_PURCHASE = anyOf(
  'CHECKER, SCRATCH CARD, CARD, PIN, FORM, FORMS, ACCEPTANCE, COLLECTION, FRAME, LAMINATION, VERIFICATION, PRINTING',
);
/** A place in a service that recruits by merit, bought: "slot in Customs", "army enlistment sure". */
const PLACES = anyOf('SLOT, SLOTS, POSITION, ENLISTMENT, PLACEMENT');
const SERVICES = anyOf(
  'CUSTOMS, ARMY, NAVY, AIRFORCE, AIR FORCE, POLICE, NNPC, CBN, IMMIGRATION, NDLEA, DSS, NSCDC, CIVIL DEFENCE, ' +
    'FIRS, NIS, FRSC, NPA, NIMASA, NCS, EFCC, PRISON, CORRECTIONAL',
);
/** Leaked papers: "expo" or "runs" with an exam; a book or a trade expo is an exhibition. */
const LEAK = anyOf('EXPO, RUNS, QUESTION PAPER, QUESTION PAPERS, LEAKED, QUESTIONS AND ANSWERS, ANSWERS');
const EXAMS = anyOf(
  'WAEC, NECO, JAMB, NABTEB, GCE, BECE, UTME, SSCE, POST UTME, EXAM, EXAMS, MATHS, MATHEMATICS, ENG, ENGLISH, PHYSICS, CHEMISTRY, BIOLOGY, ECONOMICS',
);
const EXHIBITION = anyOf(
  'BOOK, TRADE, FAIR, EXHIBITION, TICKET, TICKETS, STAND, BOOTH, CAR, AUTO, ART, TECH, FOOD, FASHION, WEDDING, HOME',
);

/** A person set free for money: ransom in other words. Release of a result, a car or goods is not. */
const PERSON_RELEASE = new RegExp(
  ' RELEASE (?:OF )?(?:MY |OUR |HIS |HER |THEIR |THE |DI |D )?' +
    '(?:BROTHER|SISTER|SON|DAUGHTER|WIFE|HUSBAND|FATHER|MOTHER|DAD|DADDY|MUM|MUMMY|MAMA|PAPA|BABY|' +
    'CHILD|UNCLE|AUNTY|AUNTIE|COUSIN|NEPHEW|NIECE|BOSS|PASTOR|VICTIM|AM|HIM|HER|THEM)' +
    '(?= (?!RESULT|RESULTS|CERTIFICATE|SALARY|CAR|GOODS|LETTER|DOCUMENT|DOCUMENTS|FILE|PAY)| ?$)|' +
    ' (?:HIS|HER|THEIR|MY|OUR) RELEASE | CAPTORS ',
);

/** An official paid to act against the law: "for police, make dem drop the case". A fine or a report is lawful. */
const OFFICIALS = anyOf(
  'POLICE, POLICEMAN, POLICEMEN, OFFICER, OFFICERS, DPO, IPO, CID, SARS, JUDGE, MAGISTRATE, LECTURER, ' +
    'EXAMINER, INVIGILATOR, VIO, LASTMA, FRSC, KAI, TASKFORCE, TASK FORCE, CUSTOMS OFFICER, WARDER',
);
const FAVOURS = new RegExp(
  String.raw` (?:DROP|KILL|SQUASH|CLOSE|BURY|STOP) (?:THE |DI |D |DIS |THIS |MY |HIS |HER )?` +
    String.raw`(?:CASE|MATTER|FILE|REPORT)| LET (?:HIM|HER|AM|US|ME|THEM|MY \w+) GO|` +
    String.raw` RELEASE (?:HIM|HER|AM|THEM|MY)| LOOK THE OTHER WAY| PASS (?:ME|HIM|HER|AM|US)|` +
    String.raw` (?:NO|NOT|DONT|DO NOT) (?:BOOK|ARREST|DETAIN|TOW|IMPOUND)| UNDER THE TABLE| OFF THE RECORD|` +
    String.raw` SETTLE (?:AM|DEM|THEM|HIM|HER|THE OGA)(?= )`,
);

/** Money passed through: washed, or a mule's cut kept and the rest sent on ("wash wash" is the black-money scam, a word of its own; a car wash is a wash). */
const LAUNDERING = new RegExp(
  ' (?<!CAR |BUS |MOTOR |BIKE |HAND |WASH )WASH (?:(?:THIS|DIS|THE|DA|D|MY|SOME|SUM|THESE|DEM) )?' +
    '(?:MONEY|FUNDS?|CASH|DOLLARS|USD|BTC|CRYPTO)(?= )|' +
    ' CLEAN (?:THIS|DIS|THESE|DEM) (?:MONEY|FUNDS?|CASH)| MONEY WASHING | MULE |' +
    ' (?:RENT|LEND|USE|BORROW) (?:ME )?(?:YOUR|UR|YA|HIS|HER) (?:ACCOUNT|ACCT|ACC|AC) ',
);
const CUT = new RegExp(
  String.raw`\b(?:KEEP|TAKE|REMOVE)\b[^%]{0,12}\d+ ?(?:%|PERCENT)|` +
    String.raw`\d+ ?(?:%|PERCENT)[^%]{0,10}\bFOR (?:YOU|U|YOURSELF)\b|` +
    String.raw`\bSEND (?:IT |AM |THE \w+ )?BACK \d+ ?(?:%|PERCENT)`,
);
const ONWARD = /\b(?:SEND|SENT|RETURN|FORWARD|TRANSFER|REMIT|PASS|BALANCE|REST)\b/;

/** The yahoo trade's words for a victim and a pick-up, with the scheme they work: "pick-up from the romance client". */
const TRADE = anyOf('CLIENT, CLIENTS, PICK UP, PICKUP, PICKER, FORMAT, MAGA, MUGU, BILLING, LOADING');
const SCHEMES = anyOf(
  'ROMANCE, DATING, MILITARY, ARMY, SOLDIER, GIFT CARD, GIFTCARD, ITUNES, STEAM CARD, HOOKUP, HOOK UP, OYINBO, INHERITANCE, WIRE',
);

/** Drugs by their measure: a slang name that is an everyday word alone ("loud", "Colorado") with "wraps" or "joints". */
const MEASURES = anyOf(
  'WRAP, WRAPS, RAP, RAPS, JOINT, JOINTS, ROLL, ROLLS, SACHET, SACHETS, PINCH, STICK, STICKS, GRAM, GRAMS, ZIP, ZIPS, OZ',
);
const DRUG_SLANG = anyOf('LOUD, COLORADO, ARIZONA, IGBO, GRASS, KUSH, SKUNK, MOLLY, GBANA, WEWE');

/** A carder's goods: stolen card data and logins sold by the piece. */
const CARDING = anyOf(
  'FULLZ, CC DUMPS, CARD DUMPS, CVV DUMPS, DUMPS WITH PIN, DUMPS AND PIN, CC FULLZ, CVV FULLZ, BANK LOGS, ' +
    'BANK LOG, PAYPAL LOGS, CASHAPP LOGS, SPAMMING TOOLS, SPAM TOOLS, CC SHOP',
);

/*
 * Classes of crime whose words are everyday words alone ("post", "pictures", "cash out", "SIM", "card", "deal with",
 * "customs", "grant"): each is held only when its words stand in the relation that gives it away.
 */

/** What a blackmailer threatens to publish. */
const MEDIA = alt(
  'PICTURES, PICTURE, PICS, PIC, PIX, PHOTOS, PHOTO, VIDEO, VIDEOS, VID, VIDS, TAPE, CLIP, CLIPS, CHATS, ' +
    'SCREENSHOTS, SCREENSHOT, NUDES',
);
/** Pictures no one pays to have made public: any talk of publishing, deleting or not publishing them is the threat. */
const INTIMATE = anyOf(
  'NUDES, NUDE PICS, NUDE PICTURES, NUDE PHOTOS, NUDE VIDEO, NUDE VIDEOS, NAKED PICS, NAKED PICTURES, NAKED PHOTOS, ' +
    'NAKED VIDEO, NAKED VIDEOS, SEX TAPE, SEXTAPE, SEX VIDEO, SEX VIDEOS, BEDROOM VIDEO, BEDROOM VIDEOS',
);
const INTIMATE_THREAT = anyOf(
  'POST, LEAK, UPLOAD, EXPOSE, PUBLISH, SPREAD, SEND, SHOW, SHARE, RELEASE, FORWARD, DELETE, REMOVE, DONT, NO, NOT, OR, ELSE, BEFORE, B4',
);
/**
 * Making public. A photographer sends, shares or releases a client's pictures once paid, so those verbs threaten only
 * toward an audience; "or I release your video" is still a threat, "before I release your pictures" a delivery.
 */
const PUBLISHING = 'POST, POSTING, LEAK, LEAKING, UPLOAD, UPLOADING, EXPOSE, EXPOSING, PUBLISH, SPREAD, BROADCAST';
const DELIVERING = 'SEND, SENDING, SHOW, SHOWING, FORWARD, SHARE, SHARING, DROP, RELEASE';
/** A person's own people, to be told: "your family", not "your family house". */
const PEOPLE =
  String.raw`(?:FAMILY|PARENTS|WIFE|HUSBAND|PASTOR|CHURCH|BOSS|EMPLOYER|COLLEAGUES|CONTACTS|FRIENDS|IN LAWS|INLAWS|FIANCE|` +
  String.raw`FIANCEE|KIDS|CHILDREN)(?! HOUSE| HOME| COMPOUND| ADDRESS)`;
/** Who a blackmailer threatens to tell: the victim's own people or the public. */
const AUDIENCE =
  String.raw`(?:(?:YOUR|UR|YA|HIS|HER|THEIR) ${PEOPLE}|ONLINE|SOCIAL MEDIA|FACEBOOK|FB|INSTAGRAM|IG|TIKTOK|TWITTER|` +
  String.raw`WHATSAPP STATUS|YOUTUBE|TELEGRAM|INTERNET|EVERYBODY|EVERYONE|BLOG|BLOGS)`;
const PUBLISHER = String.raw`(?:I|WE|ILL|WELL|MY BOYS)(?: (?:WILL|GO|SHALL|FIT|MUST|CAN))?`;
/** "Or I release your video", "pay before I send it to your family": the blackmailer's own next step, not negated. */
const PUBLISH_THREAT = new RegExp(
  String.raw` (?:(?:OR|ELSE|OTHERWISE|IF NOT|UNLESS|IF (?:YOU|U|YA) (?:DONT|DO NOT|NO|FAIL|REFUSE))(?: \w+){0,3}? ${PUBLISHER} ` +
    String.raw`(?:(?:${alt(PUBLISHING)}|RELEASE)(?: \w+){0,5}? (?:${MEDIA}|${AUDIENCE})|(?:${alt(DELIVERING)})(?: \w+){0,5}? ${AUDIENCE})|` +
    String.raw`(?:BEFORE|B4)(?: \w+){0,2}? ${PUBLISHER} ` +
    String.raw`(?:(?:${alt(PUBLISHING)})(?: \w+){0,5}? (?:${MEDIA}|${AUDIENCE})|(?:${alt(DELIVERING)})(?: \w+){0,5}? ${AUDIENCE}))(?= )`,
);
/** The payer's own people, when the victim writes the narration: "so the tape does not reach my pastor". */
const OWN_PEOPLE = String.raw`(?:MY|OUR) ${PEOPLE}`;
const NOT_DONE =
  String.raw`(?:DONT|DO NOT|DOES NOT|DOESNT|WONT|WILL NOT|WOULD NOT|WOULDNT|NO|NOT|NEVER|NO GO|NOT GO|SHOULD NOT|` +
  String.raw`SHOULDNT|CANT|CANNOT)`;
/**
 * Paying for it not to happen: "so you don't post the pictures", "so u no go upload d video", "make the video no reach my
 * wife". "Pls don't post yet" is a request; "so the pictures don't fade" goes nowhere.
 */
const PAID_NOT_TO_PUBLISH = new RegExp(
  String.raw` (?:SO(?: THAT)?(?: (?:YOU|U|YA|HE|SHE|THEY|DEM|E))? ${NOT_DONE}|NOT TO) (?:${alt(PUBLISHING)}|${alt(DELIVERING)})` +
    String.raw`(?: \w+){0,4}? (?:${MEDIA}|${AUDIENCE}|${OWN_PEOPLE})(?= )|` +
    String.raw` (?:SO|SO THAT|MAKE)(?: (?:THE|D|DI|DA|MY|YOUR|UR|DIS|THIS|THOSE|THESE|DEM))? (?:${MEDIA}) ${NOT_DONE}(?: GO)? ` +
    String.raw`(?:REACH|REACHES|GET TO|GO TO|LEAK|COME OUT|GO OUT|GO VIRAL|SURFACE|ENTER|LAND|APPEAR)(?= )`,
);
/** Someone's pictures leaked: a roof leaks too, but not "the pics". */
const LEAKED_MEDIA = new RegExp(
  String.raw` (?:LEAK|LEAKS|LEAKED|LEAKING)(?: (?:THE|D|DI|DA|MY|YOUR|UR|HER|HIS|OUR|DEM|THOSE|THESE|THIS|DIS))? (?:${MEDIA})(?= )`,
);

/** Someone else's account lent to receive money: "use your account to receive", "lend me ur aza make i collect am" ("aza": account number). */
const ACCOUNT_LENT =
  / (?:USE|LEND|RENT|BORROW)(?: ME)? (?:YOUR|UR|YA) (?:ACCOUNT|ACCT|ACC|AC|AZA|BANK)(?: \w+){0,3}? (?:RECEIVE|COLLECT)(?= )/;
/** Taking money out of an account: a betting or loan account's, or one received into for someone else. */
const CASH_OUT = / (?:CASH ?OUT|CASH (?:IT|AM|DEM|THEM) OUT|WITHDRAW|WITHDRAWAL|WITHDRAWN|WITHDRAWING) /;
const RECEIVED_FOR = / (?:RECEIVE|COLLECT)(?: \w+){0,3}? (?:FOR ME|ON MY BEHALF|FOR MY GUY|FOR MY OGA)(?= )/;
/** Sent back to the one it was taken out for. "Send to mama" is an errand, "pay back the loan" a repayment. */
const SENT_BACK = new RegExp(
  String.raw` (?:SEND|TRANSFER|RETURN|REMIT|FORWARD|TRF)(?: (?:IT|AM|DEM|THEM|EVERYTHING|REST|BALANCE|REMAINING|` +
    String.raw`(?:THE|D|DI) \w+))? (?:BACK|BAK)(?= )| (?:AND|N|THEN) RETURN(?= )|` +
    String.raw` (?:SEND|TRANSFER|RETURN|FORWARD|REMIT)(?: IT| AM)? (?:TO|2) ME(?= )|` +
    String.raw` RECEIVE (?:AND|N|THEN) (?:SEND|TRANSFER|FORWARD|REMIT|TRF)(?= )`,
);
/** The mule's pay: "keep 10%", "take 5k", "2k for you", "you get 5k", "your cut" (the narration as written, for "%"). */
const MULE_CUT = new RegExp(
  String.raw`\b(?:KEEP|TAKE|REMOVE|DEDUCT)\b[^%\d]{0,12}\d+ ?(?:%|PERCENT|K\b)|\b\d+ ?(?:%|K|PERCENT)? ?(?:IS )?(?:FOR|4) ` +
    String.raw`(?:YOU|U|YOURSELF|YOUR TROUBLE|YOUR WAHALA)\b|\b(?:YOU|U) (?:GET|GO GET|WILL GET|COLLECT)\b[^\d]{0,6}\d|` +
    String.raw`\bYOUR (?:CUT|SHARE|PERCENT|PERCENTAGE)\b`,
);
/** Someone's betting or loan account, the accounts mules are recruited to cash out. */
const STAKE_ACCOUNT = new RegExp(
  String.raw` (?:MY|HIS|HER|OUR|THEIR|THIS|THE|D|DI) (?:BET|BETTING|SPORTYBET|BET9JA|BETKING|1XBET|NAIRABET|MSPORT|BETWAY|` +
    String.raw`MERRYBET|BANGBET|BETNAIJA|22BET|MELBET|LOAN|LOAN APP|FAIRMONEY|PALMCREDIT|OKASH|EASEMONI|CARBON|RENMONEY)(?= )`,
);

/** Documents and cards of identity, and what a forger does to them. A passport photograph is a photograph. */
const ID_DOCUMENTS = alt(
  'NIN, NIN SLIP, NIN SLIPS, NIN CARD, BVN, SIM, SIMS, SIM CARD, SIM CARDS, ATM, ATM CARD, ATM CARDS, DEBIT CARD, ' +
    'CREDIT CARD, VERVE CARD, MASTERCARD, MASTER CARD, VISA CARD, ID, ID CARD, ID CARDS, NATIONAL ID, VOTERS CARD, ' +
    'VOTER CARD, PVC, DRIVERS LICENSE, DRIVERS LICENCE, DRIVING LICENSE, DRIVING LICENCE, PASSPORT, ' +
    'INTERNATIONAL PASSPORT, DATA PAGE, BANK STATEMENT, STATEMENT OF ACCOUNT, UTILITY BILL, BIRTH CERTIFICATE',
);
const FORGED = alt(
  'FAKE, FAKES, FAKED, CLONE, CLONED, CLONES, CLONING, FORGE, FORGED, FORGERY, FORGING, COUNTERFEIT, DOCTORED',
);
/** Editing is lawful for a photograph or an ID card's design; on a statement or a NIN slip it is forgery. */
const EDITED = alt('EDIT, EDITED, EDITING, PHOTOSHOP, PHOTOSHOPPED');
const EDITABLE = alt('NIN SLIP, NIN, BVN, BANK STATEMENT, STATEMENT OF ACCOUNT, UTILITY BILL');
const FORGED_ID = new RegExp(
  String.raw` (?:${FORGED})(?: \w+){0,2}? (?:${ID_DOCUMENTS})(?! PHOTO| PHOTOS| PHOTOGRAPH| PHOTOGRAPHS| PICTURE| PIC| SIZE)(?= )|` +
    String.raw` (?:${ID_DOCUMENTS})(?: \w+)? (?:${FORGED})(?= )| (?:${EDITED})(?: \w+)? (?:${EDITABLE})(?= )|` +
    String.raw` (?:${EDITABLE}) (?:${EDITED})(?= )`,
);
/** What is sold or rented to hide who holds an account: a BVN, a NIN, a bank account, a SIM registered to someone else. Buying a new SIM is not. */
const TRADED_IDS = alt(
  'BVN, BVNS, NIN, NINS, BVN ACCOUNT, BVN ACCOUNTS, NIN ACCOUNT, BANK ACCOUNT, BANK ACCOUNTS, CORPORATE ACCOUNT, ' +
    'CORPORATE ACCOUNTS, REGISTERED SIM, REGISTERED SIMS, PREREGISTERED SIM, PREREGISTERED SIMS, PRE REGISTERED SIM',
);
const TRADING = alt(
  'BUY, BUYS, BUYING, BOUGHT, SELL, SELLS, SELLING, SOLD, RENT, RENTS, RENTING, RENTED, LEASE, LEASING, HIRE',
);
/** "Rent your account", "sell ur bvn", "BVN for sale"; "rent my account number" and "account for rent" are a tenant's. */
const TRADED_ID = new RegExp(
  String.raw` (?:${TRADING})(?: (?:YOUR|UR|YA|HIS|HER|THEIR|MY|ME|A|AN|THE|D|DI|SOMEONE|SOMEONES|SOMEBODY|PERSON|OLD|` +
    String.raw`USED|NEW|VERIFIED|FRESH)){0,2} (?:${TRADED_IDS})(?= )|` +
    String.raw` (?:RENT|RENTING|LEASE|SELL|SELLING|BUY|BUYING|HIRE)(?: ME| OUT)? (?:YOUR|UR|YA|HIS|HER|THEIR) ` +
    String.raw`(?:ACCOUNT|ACCOUNTS|ACCT|ACC|AC)(?= )| (?:${TRADED_IDS}) FOR (?:SALE|RENT|HIRE)(?= )`,
);

/** A bank card, not a recharge card, a SIM, a gift card or a memory card. */
const BANK_CARD =
  String.raw`(?<! (?:RECHARGE|SIM|GIFT|SCRATCH|MEMORY|SD|GRAPHICS|VIDEO|SOUND|NETWORK|BUSINESS|INVITATION|` +
  String.raw`GREETING|WEDDING|BIRTHDAY|REPORT|VOTERS|ID|RED|YELLOW|AIRTIME|DATA|MTN|GLO|AIRTEL|9MOBILE|DSTV|GOTV|METER)) ` +
  String.raw`(?:CARD|CARDS|ATM|ATMS)`;
const SWAPPING = alt('SWAP, SWAPS, SWAPPED, SWAPPING, SWAPING, SWAPED');
/**
 * A victim's card swapped at the ATM, and its proceeds: "swapped card", "ATM swap money", "we switch her card", and
 * "card don enter" (the card paid out), and a PIN read over a shoulder. A card paid with ("swap, card payment") and a recharge card that worked are not.
 */
const CARD_SWAP = new RegExp(
  String.raw` (?:${SWAPPING})(?: (?:HER|HIS|THEIR|THE|D|DI|DAT|THAT|MAMA|PERSON|OLD|WOMAN|MAN))*${BANK_CARD}` +
    String.raw`(?! PAYMENT| PAYMENTS| PAY| TRANSACTION| TRANSACTIONS)(?= )|` +
    String.raw`${BANK_CARD}(?: (?:WE|DEM|THEY|I|WEY|WEY WE|THAT WE|WE DON))? (?:${SWAPPING})(?= )|` +
    String.raw` (?:SWITCH|SWITCHED|SWITCHING) (?:HER|HIS|THEIR|MAMA|THE WOMAN|THE MAN|PERSON|OLD WOMAN|OLD MAN) (?:ATM )?CARD(?= )|` +
    String.raw`${BANK_CARD} (?:DON|DONE|HAS|HAVE|DEY|DON DEY) (?:ENTER|ENTA|ENTERED|BURST|CASH|CASHOUT|DROP)(?= )|` +
    String.raw` SHOULDER ?(?:SURF|SURFED|SURFING)(?= )`,
);

/** A person as the object of harm. */
const PERSON =
  String.raw`(?:HIM|HER|AM|THEM|DEM|(?:THE|THAT|DAT|D|DI|DIS|THIS|MY|OUR|HIS|HER) (?:GUY|MAN|WOMAN|BOY|GIRL|LANDLORD|TENANT|` +
  String.raw`NEIGHBOUR|NEIGHBOR|RIVAL|OGA|CHAIRMAN|OPPONENT|EX|BOSS|DEBTOR|CUSTOMER|AGENT|DRIVER|PERSON|FOOL|IDIOT))`;
/** "Deal with him", the verb: a land deal, the deal with him, is a bargain. */
const DEAL_WITH = new RegExp(
  String.raw`(?<! (?:THE|A|AN|OUR|MY|YOUR|UR|HIS|HER|THIS|THAT|DIS|DAT|DI|D|LAND|CAR|PLOT|BUSINESS|GOOD|BAD|BIG|FAIR|NEW|` +
    String.raw`OLD|SEALED|CLOSE|CLOSED|SWEET|RAW|BEST|FIRST)) DEALT? WITH ${PERSON}(?= )`,
);
/** Harm done to a person: "beat am", "rough up", "break his leg", "scatter their meeting", "teach him a lesson" (not "teach him lesson", a home lesson). */
const HARM = new RegExp(
  String.raw` (?:(?:BEAT|FLOG|SLAP|WOUND|INJURE|MACHETE|CUTLASS|STAB|KPAI|ATTACK|KILL)(?: UP)? ${PERSON}|` +
    String.raw`(?:BEAT|ROUGH)(?: ${PERSON})? UP|BREAK (?:HIS|HER|THEIR) (?:\w+ )?(?:LEG|LEGS|HAND|HANDS|HEAD|JAW|BONES|ARM|ARMS)|` +
    String.raw`TEACH ${PERSON} A LESSON(?! IN| ON| OF| FOR| ABOUT)|` +
    String.raw`(?:SCATTER|DISRUPT|BREAK UP) (?:${PERSON}|(?:THEIR|HIS|HER|THE|D|DI|DAT|THAT) (?:MEETING|RALLY|CAMPAIGN|PARTY|EVENT|` +
    String.raw`SHOP|STALL|OFFICE|FACE|HEAD|BODY)))(?= )`,
);
/** Hands hired to do it: "hire boys", "make dem", "for area boys". "Boys quarters" and "pay the boys for security" hurt no one. */
const HIRED_HANDS = new RegExp(
  String.raw` (?:HIRE|HIRED|HIRING|PAY|PAID|SEND|SENT|MOBILISE|MOBILIZE|SETTLE|GIVE|FOR|MAKE|GET|ARRANGE)` +
    String.raw`(?: (?:THE|SOME|D|DI|DEM|MY|OUR|AREA|STREET|CULT))? (?:BOYS|GUYS|THUGS|AGBERO|AGBEROS|HITMAN|HITMEN|GANG|BOUNCERS)(?= )|` +
    String.raw` MAKE (?:DEM|THEM|THEY)(?= )| (?:AREA BOYS|THUGS|AGBERO|AGBEROS|HITMAN|HIT MAN|HITMEN|ASSASSIN|ASSASSINS) `,
);
/** "Settle the thugs", "hitman balance": paying those whose trade is violence. "Victims of thugs" are not paying them. */
const THUGS_PAID = new RegExp(
  String.raw` (?:SETTLE|SETTLED|PAY|PAID|HIRE|HIRED|MOBILISE|MOBILIZE|MOBILISATION|MOBILIZATION|FOR|GIVE|SEND)` +
    String.raw`(?: (?:THE|D|DI|DEM|SOME|MY|OUR|POLITICAL))? (?:THUGS|HITMAN|HIT MAN|HITMEN|ASSASSIN|ASSASSINS|GUNMEN|KILLERS)(?= )|` +
    String.raw` (?:THUGS|HITMAN|HITMEN|ASSASSIN) (?:MONEY|FEE|FEES|PAYMENT|BALANCE|MOBILISATION|MOBILIZATION|SETTLEMENT|WAGES)(?= )`,
);

/** Agencies that inspect goods and buildings, and their people; the company's own clearing officer is not one. */
const INSPECTORATES = alt(
  'CUSTOMS, CUSTOM, NAFDAC, SON, STANDARDS, NPA, PORT, PORTS, QUARANTINE, FIRE, FIRE SERVICE, BUILDING CONTROL, LASBCA, ' +
    'TOWN PLANNING, PLANNING, PHYSICAL PLANNING, ENVIRONMENTAL, ENVIRONMENTAL HEALTH, SANITATION, HEALTH, LASEPA, ' +
    'NESREA, NMDPRA, DPR, WEIGHTS AND MEASURES, EXCISE',
);
const INSPECTORS =
  'OFFICER, OFFICERS, OFFICIAL, OFFICIALS, INSPECTOR, INSPECTORS, EXAMINER, EXAMINERS, AUDITOR, AUDITORS';
const INSPECTORATE_PEOPLE = `${INSPECTORS}, PEOPLE, MEN, BOYS, GUY, GUYS, OGA, TEAM`;
/** What is passed: goods at a port, a building or a product at an inspection. */
const INSPECTED = alt(
  'GOODS, CONTAINER, CONTAINERS, CARGO, CONSIGNMENT, SHIPMENT, TRUCK, TRUCKS, LOAD, PRODUCT, PRODUCTS, BUILDING, PLAN, ' +
    'PLANS, DRAWING, DRAWINGS, HOUSE, SITE, SHOP, FACTORY, PREMISES, RESTAURANT, KITCHEN, HOTEL, WAREHOUSE, INSPECTION, ' +
    'AUDIT, CAR, VEHICLE, ITEMS, AM, IT, THEM, DEM, US, ME, MY',
);
/** An inspector paid to pass, clear or not check: "for the officer to clear the goods", "settle the inspector so he passes the building". */
const INSPECTOR_PAID = new RegExp(
  String.raw` (?:FOR|SETTLE|SETTLED|SETTLING|ROGER|ROGERED|BRIBE|BRIBED|TIP|SORT|SORTED|EGUNJE|GIVE|GAVE|PAY|PAID)` +
    String.raw`(?: (?:THE|D|DI|DA|THAT|DAT|DEM|DIS|THIS))?(?: (?:${INSPECTORATES})(?: (?:${alt(INSPECTORATE_PEOPLE)}))?| ` +
    String.raw`(?:${alt(INSPECTORS)})) (?:TO|2|SO|SO THAT|MAKE|AND|THEN)(?: (?:HE|SHE|THEY|DEM|E|HIM|HER|THEM|AM|WE|I|IT))?` +
    String.raw`(?: (?:GO|CAN|WILL|WOULD|SHOULD|COULD|FIT))? (?:(?:PASS|PASSES|PASSED|APPROVE|APPROVES|APPROVED|CLEAR|CLEARS|` +
    String.raw`CLEARED|RELEASE|RELEASES|RELEASED|SIGN|SIGNS|CERTIFY|STAMP|OVERLOOK|IGNORE|WAIVE|ALLOW|LET)|` +
    String.raw`(?:NO|NOT|DONT|WONT|WILL NOT|DO NOT)(?: GO)? (?:CHECK|INSPECT|EXAMINE|SEAL|SEIZE|IMPOUND|OPEN|TEST|SEARCH|SCAN|` +
    String.raw`DETAIN|COUNT|ASSESS))(?: \w+){0,3}? (?:${INSPECTED})(?= )`,
);
/** Passed without what the law asks: "release the container without duty", "approve without lab test". */
const WITHOUT_CHECKS = new RegExp(
  String.raw` (?:CLEAR|CLEARED|CLEARING|RELEASE|RELEASED|PASS|PASSED|APPROVE|APPROVED|SIGN|SIGNED|CERTIFY|CERTIFIED|` +
    String.raw`ENTER|ENTERED|BRING|BROUGHT)(?: \w+){0,4}? WITHOUT (?:PAYING )?(?:ANY |THE |D )?(?:DUTY|DUTIES|INSPECTION|` +
    String.raw`EXAMINATION|CHECKING|CHECKS|CHECK|TEST|TESTING|LAB TEST|PAPERS|DOCUMENTS|DOCS|PERMIT|APPROVAL|SCANNING|SCAN|` +
    String.raw`TARIFF)(?= )`,
);
const INSPECTION_SUBJECT = new RegExp(String.raw` (?:${INSPECTORATES}|${alt(INSPECTORS)}|${INSPECTED})(?= )`);
/** A charge paid to the state: money "for customs to release the container" with its duty is lawful, unless "without" it. */
const LAWFUL_CHARGE = new RegExp(
  String.raw`(?<! WITHOUT| NO| PAYING| AVOID| DODGE| EVADE| SKIP) (?:DUTY|DUTIES|TARIFF|LEVY|REMITA|PAAR|ASSESSMENT|` +
    String.raw`DEMURRAGE|FINE|INSPECTION FEE|PERMIT FEE|FORM M|TERMINAL CHARGES|SHIPPING CHARGES)(?= )`,
);

/**
 * What a government, a central bank or a donor gives away: a grant, relief, a palliative. A grant of probate, tax or
 * pain relief, and the work around them (distribution, trucks, a grant proposal's writing, its repayment) are not.
 */
const HANDOUT =
  String.raw`(?<! (?:TAX|PAIN|DEBT)) (?:GRANT(?! OF )|GRANTS|PALLIATIVE|PALLIATIVES|RELIEF|TRADERMONI|MARKETMONI|FARMERMONI|` +
  String.raw`SURVIVAL FUND|INTERVENTION FUND|COVID FUND|CONDITIONAL CASH TRANSFER|BAILOUT)(?! (?:DISTRIBUTION|DISTRIBUTIONS|` +
  String.raw`TRUCK|TRUCKS|LOADING|OFFLOADING|PACKING|PACKAGING|BAGS|WAREHOUSE|COMMITTEE|VOLUNTEER|VOLUNTEERS|LOGISTICS|` +
  String.raw`MATERIALS|ITEMS|REPAYMENT|REPAYMENTS|WRITING|WRITER|PROPOSAL|REFUND|AUDIT|REPORT|BENEFICIARIES|RECIPIENTS|APPLICANTS)(?= ))`;
const HANDOUT_FEE =
  String.raw`(?:(?:PROCESSING|REGISTRATION|ACTIVATION|APPROVAL|VERIFICATION|DOCUMENTATION|CLEARANCE|ENROLMENT|ENROLLMENT|` +
  String.raw`FORM|APPLICATION|HANDLING|RELEASE|DISBURSEMENT|INSURANCE|LEGAL|CODE|DELIVERY) )?(?:FEE|FEES|CHARGE|CHARGES|TAX)`;
/** A fee named by what it is for: "registration for the youth grant" charges for it, "disbursement of the grant" pays it. */
const HANDOUT_STEP = alt(
  'REGISTRATION, PROCESSING, ACTIVATION, VERIFICATION, DOCUMENTATION, ENROLMENT, ENROLLMENT, CLEARANCE',
);
const RECEIVING = String.raw`(?:RECEIVE|GET|COLLECT|CLAIM|ACCESS|QUALIFY|BENEFIT|ENJOY|UNLOCK|BE ENROLLED|BE CAPTURED|BE LISTED)`;
/** "Processing fee for your CBN grant", "TraderMoni activation fee", "pay N5000 to receive the FG palliative". */
const FEE_FOR_HANDOUT = new RegExp(
  String.raw` (?:${HANDOUT_FEE}|${HANDOUT_STEP}) (?:FOR|OF|ON|TO|2)(?: ${RECEIVING})?(?: \w+){0,3}?${HANDOUT}(?= )|` +
    String.raw`${HANDOUT}(?: (?:FUND|FUNDS|PACKAGE|MONEY|SCHEME|PROGRAMME|PROGRAM|LOAN|PAYMENT|PAYOUT))? ${HANDOUT_FEE}(?= )`,
);
const PAY_FOR_HANDOUT = new RegExp(
  String.raw` (?:PAY|PAID|SEND|SENT|TRANSFER|TRF|DEPOSIT)(?: \w+){0,3}? (?:TO|2|B4|BEFORE|SO|AND)` +
    String.raw`(?: (?:YOU|U|YA|I|WE|HE|SHE|THEY))?(?: (?:CAN|WILL|GO|SHALL|FIT|COULD))? ${RECEIVING}(?: \w+){0,4}?${HANDOUT}(?= )`,
);
/** A trip to fetch palliatives for others pays for transport, not for the palliative. */
const ERRAND = anyOf(
  'TRANSPORT, TRANSPORTATION, FUEL, DRIVER, LOGISTICS, BUS, KEKE, OKADA, FARE, VOLUNTEER, VOLUNTEERS',
);

export interface RiskShape {
  /** What the shape is, for the explanation. */
  shape: string;
  /** What the money buys or does, when the shape says it better than the narration's words: a racket's goods are a purchase, money passed on a transfer. */
  intent?: 'purchase' | 'transfer';
}

const namesFamily = (spaced: string) =>
  spaced
    .trim()
    .split(' ')
    .some((w) => FAMILY_WORDS.has(w));

type Rule = { shape: string; intent?: RiskShape['intent']; test: (spaced: string, raw: string) => boolean };

const RULES: Rule[] = [
  {
    shape: 'a fee to release a larger sum (a prize, a loan, a parcel, funds, a job)',
    test: (s) => !OFFICIAL.test(s) && (FEE_BEFORE.test(s) || (GAINS.test(s) && RELEASING.test(s) && FEES.test(s))),
  },
  {
    shape: 'returns promised at a multiple or a rate',
    test: (s, raw) => {
      if (GUARANTEED.test(s)) return true;
      if (MULTIPLE.test(s) && STAKED.test(s)) return true;
      if (THRIFT.test(s)) return false;
      const rate = RATE.exec(raw);
      if (rate && !CHARGED.test(s)) {
        const days = (Number(rate[2] ?? 1) || 1) * (DAYS_IN.find(([unit]) => unit.test(rate[3]!))?.[1] ?? 30);
        // A savings plan's interest is a few percent a month; a scheme's is tens of percent in days.
        if ((Number(rate[1]) * 30) / days >= 10) return true;
      }
      const back = STAKE_BACK.exec(raw);
      return (
        back !== null &&
        amountOf(back[3]!, back[4]) >= 1.5 * amountOf(back[1]!, back[2]) &&
        amountOf(back[1]!, back[2]) > 0
      );
    },
  },
  { shape: 'secrecy', test: (s) => SECRECY.test(s) && !OCCASION.test(s) },
  { shape: 'urgency with a threat', test: (s) => THREAT.test(s) && URGENT.test(s) },
  {
    shape: 'paying for a result, a certificate or a place that cannot be bought',
    test: (s) =>
      (BUYING.test(s) && UNBUYABLE.test(s) && !LAWFUL_PURCHASE.test(s)) || (PLACES.test(s) && SERVICES.test(s)),
  },
  {
    shape: 'leaked exam papers',
    intent: 'purchase',
    test: (s) => LEAK.test(s) && EXAMS.test(s) && !EXHIBITION.test(s),
  },
  { shape: "payment for a person's release", test: (s) => PERSON_RELEASE.test(s) },
  { shape: 'an official paid to look away', test: (s) => OFFICIALS.test(s) && FAVOURS.test(s) },
  // A family errand passes money on too ("keep 10% for yourself, send the rest to mama"): a cut is a mule's only when no family is named.
  {
    shape: 'money washed or passed on for a cut',
    intent: 'transfer',
    test: (s, raw) => LAUNDERING.test(s) || (CUT.test(raw) && ONWARD.test(raw) && !namesFamily(s)),
  },
  { shape: "the yahoo trade's victim or pick-up, with its scheme", test: (s) => TRADE.test(s) && SCHEMES.test(s) },
  { shape: 'drugs by their measure', intent: 'purchase', test: (s) => MEASURES.test(s) && DRUG_SLANG.test(s) },
  { shape: "a carder's goods", intent: 'purchase', test: (s) => CARDING.test(s) },
  {
    shape: 'sextortion: a threat to publish pictures or videos, or to send them to family',
    test: (s) =>
      PUBLISH_THREAT.test(s) ||
      PAID_NOT_TO_PUBLISH.test(s) ||
      LEAKED_MEDIA.test(s) ||
      (INTIMATE.test(s) && INTIMATE_THREAT.test(s)),
  },
  // Family errands pass money on too ("withdraw and send back to mama, keep 10%"): a cut is a mule's only when no family is named;
  // a betting or loan account cashed out for another is one whoever it goes back to.
  {
    shape: 'a money mule: an account lent to receive, or money cashed out or received for another and sent back',
    intent: 'transfer',
    test: (s, raw) =>
      ACCOUNT_LENT.test(s) ||
      ((CASH_OUT.test(s) || RECEIVED_FOR.test(s)) &&
        SENT_BACK.test(s) &&
        (STAKE_ACCOUNT.test(s) || (MULE_CUT.test(raw) && !namesFamily(s)))),
  },
  {
    shape: 'identity fraud tools: a faked or cloned ID, SIM or card, or accounts, BVN or NIN bought, sold or rented',
    test: (s) => FORGED_ID.test(s) || TRADED_ID.test(s),
  },
  { shape: 'card-swap or ATM fraud proceeds', test: (s) => CARD_SWAP.test(s) },
  {
    shape: 'violence for hire',
    test: (s) => DEAL_WITH.test(s) || THUGS_PAID.test(s) || (HARM.test(s) && HIRED_HANDS.test(s)),
  },
  {
    shape: 'a bribe to pass goods or an inspection',
    test: (s) =>
      (INSPECTOR_PAID.test(s) && !LAWFUL_CHARGE.test(s)) || (WITHOUT_CHECKS.test(s) && INSPECTION_SUBJECT.test(s)),
  },
  {
    shape: 'an advance fee dressed as a grant, relief or palliative',
    test: (s) => FEE_FOR_HANDOUT.test(s) || (PAY_FOR_HANDOUT.test(s) && !ERRAND.test(s)),
  },
];

/**
 * The shapes of fraud a narration has: `tokens` are its words (upper case), `raw` the narration in
 * upper case as written.
 * @example riskShapesIn(['PAY', 'FEE', 'TO', 'RELEASE', 'MY', 'PRIZE'], 'PAY FEE TO RELEASE MY PRIZE') // [{ shape: 'a fee to release …' }]
 */
export function riskShapesIn(tokens: string[], raw: string): RiskShape[] {
  const spaced = ` ${tokens.join(' ')} `;
  return RULES.filter((rule) => rule.test(spaced, raw)).map(({ shape, intent }) =>
    intent ? { shape, intent } : { shape },
  );
}

/** Medicines that are abused, sold lawfully on a prescription or at a pharmacy ("Tramadol 50mg on prescription, Medplus"). */
export const CONTROLLED_MEDICINES = new Set(['TRAMADOL', 'CODEINE', 'ROHYPNOL']);
const PRESCRIBED = anyOf(
  'PRESCRIPTION, PRESCRIBED, PHARMACY, PHARMACIST, CHEMIST, HOSPITAL, CLINIC, MEDPLUS, HEALTHPLUS, ALPHA PHARMACY, DOCTOR, DR',
);
const UNPRESCRIBED = anyOf(
  'NO PRESCRIPTION, WITHOUT PRESCRIPTION, WITHOUT A PRESCRIPTION, NO RX, CARTON, CARTONS, BULK',
);
export const isPrescribed = (tokens: string[]) => {
  const spaced = ` ${tokens.join(' ')} `;
  return PRESCRIBED.test(spaced) && !UNPRESCRIBED.test(spaced);
};

/**
 * A bank's refund of a fraudulent debit names the debit it undoes: "refund of fraudulent debit". Only
 * that wording: a "refund" with a scam's words may be the scam itself.
 */
const UNDONE_DEBIT =
  / FRAUDULENT (?:DEBIT|DEBITS|TRANSACTION|TRANSACTIONS|CHARGE|CHARGES|WITHDRAWAL|TRANSFER|DEDUCTION) /;
export const undoesFraudulentDebit = (tokens: string[]) => UNDONE_DEBIT.test(` ${tokens.join(' ')} `);
