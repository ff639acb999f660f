/**
 * What the rules analyser knows about the purposes Nigerian bank narrations state, written out by
 * language so that a reader who speaks one can review its lines: English (with the abbreviations,
 * brands and institutions statements carry), pidgin, Yoruba, Igbo, Hausa, and the words of Efik and
 * Ibibio, Edo, Urhobo, Tiv and Fulfulde that are sure enough to add. Kanuri has one phrase (house money); Ijaw, Nupe, Igala and
 * Idoma have none yet: better no word than a wrong one. Within an intent, classes of things have lines
 * of their own (merchants, vehicles, farming, optical and dental care, artisans). Terms are upper case without diacritics (the narration is folded
 * the same way: "ọgwụ" is OGWU), one or more words, each with its weight.
 */

export interface Intent {
  intent: string;
  label: string;
  /** Words and phrases (upper case, matched on word boundaries) with their weight. */
  terms: [string, number][];
}

/**
 * One intent's terms from its lines, one per language: `TERM weight, TERM weight, …`. A term twice in
 * one intent is a mistake in the list, and stops the module loading.
 */
function terms(byLanguage: Record<string, string>): [string, number][] {
  const out = new Map<string, number>();
  for (const line of Object.values(byLanguage)) {
    for (const entry of line
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)) {
      const parsed = /^([A-Z0-9 ]+) (\d)$/.exec(entry);
      if (!parsed || out.has(parsed[1]!)) throw new Error(`lexicon: "${entry}" is malformed or twice in one intent`);
      out.set(parsed[1]!, Number(parsed[2]));
    }
  }
  return [...out];
}

/** Specific intents, in the order that breaks ties. */
export const INTENTS: Intent[] = [
  {
    intent: 'rent',
    label: 'Rent',
    terms: terms({
      english:
        'RENT 3, HOUSE RENT 4, RENTAL 3, RNT 3, LANDLORD 3, ACCOMMODATION 3, LEASE 2, TENANCY 3, TENANT 2, ' +
        'SERVICE CHARGE 2, SVC CHG 2, SHOP RENT 4, CAUTION FEE 3, AGENCY FEE 3, AGENCY 1, SELF CONTAIN 2, ' +
        'APARTMENT 2, OFFICE RENT 4, AGENT FEE 3, AGREEMENT FEE 3, INSPECTION FEE 2, SELFCON 2, MINI FLAT 3, ' +
        'ROOM AND PARLOUR 3, ROOM AND PARLOR 3, BOYS QUARTERS 3, BQ 2, SHORTLET 3, SHORT LET 3, AIRBNB 3, ' +
        'HOTEL 2, LODGING 2',
      yoruba: 'OWO ILE 4, ONILE 3, OWO SHOP 3',
      igbo: 'EGO ULO 4, ULO 2, ONYE NWE ULO 4',
      hausa: 'KUDIN HAYA 4, HAYA 3, KUDIN GIDA 4',
      pidgin: 'HOUSE MONEY 4, SHOP MONEY 3',
      efikIbibio: 'OKUK UFOK 4, UFOK 2',
      edo: 'IGHO OWA 4',
      // Urhobo "uwevwin", house.
      urhobo: 'IGHO UWEVWIN 4',
      fulfulde: 'CEEDE SUUDU 4, SUUDU 2',
      // Kanuri "kungana" (money) and "fato" (house): only in the phrase.
      kanuri: 'KUNGANA FATO 4',
      // Tiv "ya" (house) is too short to read alone: only in the phrase.
      tiv: 'INYAREGH I YA 4',
    }),
  },
  {
    intent: 'salary',
    label: 'Salary',
    terms: terms({
      english:
        'SALARY 4, SALARIES 4, SAL 2, WAGES 3, WAGE 3, PAYROLL 4, STIPEND 3, BONUS 2, ALLOWANCE 2, ARREARS 2, IPPIS 4, OVERTIME 3, 13TH MONTH 3, ' +
        'REMUNERATION 4, EMOLUMENT 4, EMOLUMENTS 4, HONORARIUM 3, COMMISSION 2, INCENTIVE 2, PER DIEM 3, ' +
        'PERDIEM 3, GRATUITY 3, PENSION 3, LEAVE ALLOWANCE 3, STAFF PAY 4, MONTHLY PAY 3, DAILY PAY 3, ' +
        'WEEKLY PAY 3, PAYSLIP 3, LABOURERS 2, LABOUR 2, CASUAL WORKERS 3, NPOWER 3, N POWER 3, CORPER 2',
      // Freelancing platforms and remote payroll pay for work done: earnings, like a commission (Payoneer, Grey, Wise only carry it: channel words).
      freelancing: 'UPWORK 3, FIVERR 3, TOPTAL 3, DEEL 3, FREELANCE 3, FREELANCING 3, GIG PAY 3, GIG PAYMENT 3',
      pidgin: 'ALLAWEE 3, WORK MONEY 4',
      yoruba: 'OWO OSU 4, OWO ISE 4, OWO OYA 4',
      igbo: 'UGWO ONWA 4, UGWO ORU 4, EGO ORU 4, EGO ONWA 3',
      hausa: 'ALBASHI 4, KUDIN AIKI 4, LADAN AIKI 4, KUDIN LEBURA 4',
      efikIbibio: 'OKUK UTOM 4',
      edo: 'IGHO IWINNA 4',
      urhobo: 'IGHO IRUO 4',
      tiv: 'INYAREGH I TOM 4',
      fulfulde: 'CEEDE GOLLE 4',
    }),
  },
  {
    intent: 'school_fees',
    label: 'School fees',
    terms: terms({
      english:
        'SCHOOL FEES 5, SCHOOL BUS 3, SCHOOL FEE 5, SCH FEES 5, SCH FEE 5, SCH 2, SCHOOL 2, FEES 2, TUITION 4, ' +
        'TUIT 3, JSS1 3, JSS2 3, JSS3 3, SSS1 3, SSS2 3, SSS3 3, SS1 3, SS2 3, SS3 3, PRY 2, PTA 5, ' +
        'ACCEPTANCE FEE 4, HOSTEL 2, WAEC 3, JAMB 3, NECO 3, GCE 3, TEXTBOOKS 3, TEXTBOOK 3, UNIFORM 2, LESSON 2, TERM 1, SEMESTER 2, UNIVERSITY 2, ' +
        'UTME 3, POST UTME 4, NABTEB 3, BECE 3, COMMON ENTRANCE 4, EXAM FEE 3, EXAMINATION FEE 3, EXAM 2, ' +
        'EXTRA LESSON 3, HOME LESSON 3, TUTORIAL 2, TUTOR 2, CRECHE 3, DAYCARE 3, NURSERY 2, ' +
        'COLLEGE 2, POLYTECHNIC 2, POLY 2, VARSITY 2, ADMISSION 2, HANDOUT 3, HANDOUTS 3, TRANSCRIPT 3, ' +
        'CONVOCATION 2, BOARDING 2, EXCURSION 2, ISLAMIYYA 3, ISLAMIYA 3, MADRASA 3, MADRASSA 3',
      pidgin: 'SKUL 2, SKOOL 2',
      yoruba: 'OWO ILEEWE 5, ILEEWE 4, ILE IWE 4, OWO ILE IWE 5',
      igbo: 'EGO AKWUKWO 5, AKWUKWO 4, ULO AKWUKWO 5',
      hausa: 'KUDIN MAKARANTA 5, MAKARANTA 4',
      efikIbibio: 'UFOK NWED 5, NWED 3',
      tiv: 'MAKERANTA 4',
      fulfulde: 'JANGIRDE 4, CEEDE JANGIRDE 5',
    }),
  },
  {
    intent: 'loan_repayment',
    label: 'Loan repayment',
    terms: terms({
      english:
        'LOAN REPAYMENT 5, LOAN 3, LN 2, REPAYMENT 3, REPAY 3, REPYMT 3, RPYMT 3, EMI 2, DEBT 3, OWE 3, BORROWED 3, BORROW 2, ' +
        'OWING 3, OWED 3, IOU 3, LEND 2, LENT 2, OVERDRAFT 3, MORTGAGE 3, INTEREST 2, PRINCIPAL 2',
      yoruba: 'GBESE 4, TI MO YA 3',
      igbo: 'UGWO 4, GBAZIRI 4',
      hausa: 'BASHI 4, RANCE 4',
    }),
  },
  {
    intent: 'refund',
    label: 'Refund',
    terms: terms({
      english:
        'REFUND 6, REFUNDED 6, REIMBURSEMENT 5, REIMBURSE 5, REVERSAL 5, REVERSED 5, CHARGEBACK 6, MONEY BACK 4, OVERPAYMENT 2, RETURNED 2, ' +
        'RVSL 5, EXCESS PAYMENT 3, WRONG TRANSFER 4, WRONGLY SENT 4, SENT IN ERROR 4, BY MISTAKE 3, MISTAKE 3, CANCELLED 2, CANCELLATION 2',
      pidgin: 'RETURN YOUR MONEY 4',
      yoruba: 'PADA 3',
      igbo: 'NLOGHACHI 3',
      hausa: 'MAYAR DA 3',
    }),
  },
  {
    intent: 'purchase',
    label: 'Purchase',
    terms: terms({
      english:
        'POS 2, PURCHASE 3, WEB PURCHASE 4, ORDER 3, INVOICE 3, INV 2, GOODS 3, SUPPLY 2, SUPPLIES 2, SALES 2, ' +
        'SALE 2, BOUGHT 3, BUY 1, CHECKOUT 3, DELIVERY 2, MARKET 1, PROVISIONS 3, CARTONS 2, BAGS 2, ' +
        'ITEMS 2, MATERIALS 2, FABRIC 3, ANKARA 3, ASO EBI 3, CEMENT 3, TILES 3, PAINT 2, GENERATOR 3, ' +
        'PHONE 2, LAPTOP 3, RICE 2, FOR LAND 3, DESIGN 2, CONTRACT 2, SERVICES 2, WORKMANSHIP 3, REPAIRS 2, ' +
        'JUMIA 3, KONGA 3, SHOPRITE 3, SPAR 3, CRATE 2, BASKET 2, DOZEN 2, BUNDLE 2, SACK 2, RAM 3, GOAT 3, COW 3, P2P 2, CHEMICAL 2, CHEMICALS 2',
      // A payment processor's settlement is the merchant's takings.
      settlements: [
        'PAYSTACK',
        'PSTK',
        'FLUTTERWAVE',
        'FLW',
        'MERCHANT',
        'SQUAD',
        'MONNIFY',
        'INTERSWITCH',
        'QUICKTELLER',
        'OPAY',
        'PALMPAY',
        'MONIEPOINT',
        'KUDA',
        'PAGA',
        'REMITA',
        'SEERBIT',
        'GLOBALPAY',
        'VPAY',
        'ETRANZACT',
        'NOMBA',
        'KORAPAY',
        'BUDPAY',
        'FINCRA',
        'HYDROGEN',
        'CHAMS',
        'UPPERLINK',
        'PAYARENA',
        'WEBPAY',
        'PAYDIRECT',
        'POS',
        'TERMINAL',
        'CARD',
      ]
        .map((p) => `${p} SETTLEMENT 3`)
        .join(', '),
      // How a merchant is paid: a card at a terminal, a QR code (NIBSS's NQR), a web checkout.
      merchants:
        'MERCHANT 2, MERCHANT PAYMENT 3, MERCHANT PMT 3, MERCHANT PYMT 3, MERCHANT TRF 3, NQR 2, QR PAYMENT 3, ' +
        'QR PMT 3, POS PURCHASE 3, POS PAYMENT 3, POS PMT 3, WEB PMT 3, ONLINE PURCHASE 3, ' +
        'ONLINE PAYMENT FOR ORDER 3, CARD PURCHASE 3, PAYATTITUDE 2, PAY WITH TRANSFER 2',
      buying:
        'BUYING 2, PROFORMA 3, LPO 3, WHOLESALE 3, RETAIL 2, RESTOCK 3, SHOPPING 3, JUSTRITE 3, ALIBABA 3, ' +
        'ALIEXPRESS 3, AMAZON 3, TEMU 3, SHEIN 3, JIJI 3, MILE 12 3, TRADE FAIR 3, COMPUTER VILLAGE 3, ' +
        'ARIARIA 3',
      units:
        'WRAPS 2, BAG 2, CARTON 2, PCS 2, PIECES 2, YARDS 2, BALE 2, BALES 2, TRAYS 2, TUBERS 2, KG 2, KGS 2, ' +
        'LITRES 2, LITERS 2, TONS 2, TONNES 2, GALLON 2, JERRYCAN 2, KEG 2, MUDU 3, DERICA 3',
      clothes:
        'LACE 3, AGBADA 3, KAFTAN 3, WRAPPER 2, HOLLANDAIS 3, SHOES 2, SHOE 2, CLOTHES 2, CLOTHING 2, DRESS 2, ' +
        'GOWN 2, WIG 2, WIGS 2, BONE STRAIGHT 3, ATTACHMENT 2, PERFUME 2, JEWELRY 2, JEWELLERY 2',
      building:
        'IRON RODS 3, RODS 2, BLOCKS 2, SAND 2, GRANITE 3, GRAVEL 3, PLANKS 3, ROOFING 3, ROOFING SHEETS 3, ' +
        'ZINC 2, NAILS 2, PVC 2, PIPES 2, BUILDING MATERIALS 3',
      vehicles:
        'CAR 2, TOYOTA 3, COROLLA 3, CAMRY 3, LEXUS 3, HONDA 3, NISSAN 3, HYUNDAI 3, KIA 3, PEUGEOT 3, ' +
        'MERCEDES 3, BENZ 3, VOLKSWAGEN 3, VENZA 3, RAV4 3, HILUX 3, INNOSON 3, TOKUNBO 3, ' +
        'MOTORCYCLE 3, BAJAJ 3, TRICYCLE 3, BRAKE PADS 3, BRAKE 2, SHOCK ABSORBER 3, SHOCK ABSORBERS 3, ' +
        'GEARBOX 3, ALTERNATOR 3, RADIATOR 3, CLUTCH 2, WINDSCREEN 3, HEADLAMP 3, BUMPER 2, SPARK PLUGS 3, ' +
        'ENGINE OIL 3, LUBRICANT 3, RIMS 2, AXLE 3, ENGINE 2',
      farming:
        'FARM 2, FARMING 2, FARMLAND 3, FARM INPUTS 4, POULTRY 3, POULTRY FEED 4, FISH FEED 4, LIVESTOCK 3, ' +
        'FEEDS 3, LAYERS MASH 4, GROWERS MASH 4, CHICKS 3, DAY OLD CHICKS 4, BROILERS 3, BROILER 3, PULLETS 3, ' +
        'COCKERELS 3, CATFISH 3, FINGERLINGS 3, PIGLETS 3, PIGGERY 3, GOATS 3, SHEEP 3, CATTLE 3, FERTILISER 3, ' +
        'FERTILIZER 3, NPK 3, UREA 3, HERBICIDE 3, PESTICIDE 3, INSECTICIDE 3, AGROCHEMICALS 3, SEEDLINGS 3, ' +
        'SEEDS 2, ' +
        'TRACTOR 3, TRACTOR HIRE 4, PLOUGHING 3, PLOWING 3, HARROWING 3, VET 2, VETERINARY 3, TAKI 3, AJILE 3',
      services:
        'TAILOR 3, TAILORING 3, SEWING 3, SEAMSTRESS 3, FASHION DESIGNER 3, MECHANIC 3, VULCANISER 3, ' +
        'VULCANIZER 3, PLUMBER 3, PLUMBING 3, ELECTRICIAN 3, WIRING 3, CARPENTER 3, CARPENTRY 3, BRICKLAYER 3, ' +
        'WELDER 3, WELDING 3, ' +
        'PAINTER 3, TILER 3, POP CEILING 3, PANEL BEATER 3, GENERATOR REPAIR 4, GEN REPAIR 4, AC REPAIR 4, ' +
        'PHONE REPAIR 4, REPAIR 2, SERVICING 2, BARBER 3, BARBING 3, HAIRDRESSER 3, SALON 3, MAKEUP 3, ' +
        'LAUNDRY 3, DRY CLEANING 3, WASH AND IRON 3, WASH IRON 3, IRONING 3, ' +
        'FUMIGATION 3, PHOTOGRAPHER 3, PHOTOGRAPHY 3, CATERING 3, CATERER 3, DECORATOR 3, BOREHOLE 3, INSTALLATION 2, ARTISAN 3, HANDYMAN 3, CAR WASH 3',
      // Eating out and food delivery: the vendor's takings.
      // Tickets to a match, a show, a film or an exhibition ("expo"), and betting slips: bought, not a fare ("match ticket" is no TICKET of transport).
      tickets:
        'MATCH TICKET 4, MATCH TICKETS 4, CONCERT TICKET 4, CONCERT TICKETS 4, EVENT TICKET 4, ' +
        'EVENT TICKETS 4, SHOW TICKET 4, CINEMA TICKET 4, MOVIE TICKET 4, MOVIE TICKETS 4, CINEMA 3, ' +
        'CONCERT 3, BET SLIP 4, BETTING TICKET 4, BOOKING CODE 3, EXPO 3, EXHIBITION 3, BOOK FAIR 3',
      restaurants:
        'RESTAURANT 3, EATERY 3, BUKA 3, MAMA PUT 3, FOOD COURT 3, KFC 3, CHICKEN REPUBLIC 4, DOMINOS 3, ' +
        'PIZZA 3, BURGER 3, SHAWARMA 3, TASTEE 3, SWEET SENSATION 4, MR BIGGS 4, CHOWDECK 3, GLOVO 3, ' +
        'HEYFOOD 3, BOLT FOOD 4, UBER EATS 4',
      gadgets:
        'HP 2, HIRE PURCHASE 3, TECNO 3, INFINIX 3, ITEL 3, SAMSUNG 3, IPHONE 3, REDMI 3, XIAOMI 3, OPPO 3, ' +
        'ANDROID 2, HP LAPTOP 3, MACBOOK 3, IPAD 3, TABLET 2, POWER BANK 3, CHARGER 2, FONE 2, EARPIECE 2, ' +
        'AIRPODS 3, SCREEN GUARD 3, PHONE CASE 3',
      appliances:
        'TYRES 3, TYRE 3, BATTERY 2, SPARE PARTS 3, SPARE PART 3, INVERTER 3, SOLAR 2, FRIDGE 3, FREEZER 3, TELEVISION 2, FURNITURE 3, MATTRESS 3, CHAIRS 2',
      food:
        'GARRI 3, GARI 3, BEANS 3, YAM 3, PALM OIL 3, GROUNDNUT OIL 3, VEGETABLE OIL 3, TOMATO 3, TOMATOES 3, ' +
        'PEPPER 2, ONIONS 3, ONION 3, CRAYFISH 3, STOCKFISH 3, OKPOROKO 3, OGBONO 3, EGUSI 3, ' +
        'MAIZE 3, CORN 2, MILLET 3, SORGHUM 3, GUINEA CORN 3, SEMOVITA 3, SEMO 2, FLOUR 3, SUGAR 2, INDOMIE 3, ' +
        'NOODLES 2, SPAGHETTI 3, BREAD 2, EGGS 2, EGG 2, CHICKEN 2, TURKEY 2, FISH 2, MEAT 2, ' +
        'FOWL 2, BULL 3, KILISHI 3, SUYA 2, PLANTAIN 3, CASSAVA 3, GROUNDNUT 3, KOLA NUT 3, DRINKS 2, MALT 2, BEER 2, PURE WATER 3, TABLE WATER 3',
      yoruba: 'OJA 3, ASO 2, ASO OKE 3',
      igbo: 'AHIA 3, ZUTARA 3',
      hausa: 'KASUWA 3, KAYA 3, HAJA 3, SAYE 3, SIYAYYA 3',
      efikIbibio: 'URUA 3',
      edo: 'EKI 3',
      tiv: 'KASUA 3',
      fulfulde: 'LUUMO 3',
    }),
  },
  {
    intent: 'savings',
    label: 'Savings',
    terms: terms({
      english:
        'SAVINGS 4, SAVING 3, SAVE 2, THRIFT 4, CONTRIBUTION 3, CONTRI 3, COOPERATIVE 3, COOP 3, PIGGYVEST 3, ' +
        'COWRYWISE 3, CO OPERATIVE 3, TARGET SAVINGS 4, FIXED DEPOSIT 4, PIGGYBANK 3, PIGGY BANK 3',
      investment: 'INVESTMENT PLAN 3, INVESTMENT PACKAGE 3',
      yoruba: 'AJO 4, ESUSU 4, ALAJO 4',
      ghanaianAndPidgin: 'SUSU 4',
      igbo: 'ISUSU 4',
      hausa: 'ADASHE 4, ASUSU 4',
    }),
  },
  {
    intent: 'bills',
    label: 'Bills',
    terms: terms({
      english:
        'ELECTRICITY 4, ELECT 3, LIGHT BILL 4, NEPA 4, PHCN 4, IKEDC 4, EKEDC 4, AEDC 4, IBEDC 4, EEDC 4, ' +
        'PHED 4, KEDCO 4, PREPAID 2, TOKEN 1, METER 2, DSTV 4, GOTV 4, STARTIMES 4, CABLE 2, AIRTIME 4, ' +
        'RECHARGE 3, DATA 2, MTN 2, GLO 2, AIRTEL 2, 9MOBILE 2, BILL 2, BILLS 2, BLL 2, WATER 2, INTERNET 3, SPECTRANET 3, WASTE 2, LAWMA 3, ELECTRIC 3, ' +
        'ELEC 3, LIGHT 2, POSTPAID 2, BEDC 4, JEDC 4, YEDC 4, KAEDCO 4, PREPAID METER 4, CABLE TV 4, ' +
        'DECODER 2, SHOWMAX 3, NETFLIX 3, RECHARGE CARD 4, DATA BUNDLE 4, DATA SUB 4, ETISALAT 2, ' +
        'SPOTIFY 3, APPLE MUSIC 4, YOUTUBE PREMIUM 4, BOOMPLAY 3, AUDIOMACK 3, ICLOUD 3, CANVA 3, ' +
        'STARLINK 3, WIFI 3, MIFI 3, BROADBAND 3, WATER BILL 4, WATER RATE 4, PSP 3, REFUSE DISPOSAL 4, ' +
        'COOKING GAS 4, GAS REFILL 4, GAS 2, LPG 3, UTILITY 3, UTILITIES 3',
      // Insurance premiums, taxes, and what government charges (levies, licences, duties): bills, paid to keep something running or lawful.
      insurance:
        'INSURANCE 3, INSURANCE PREMIUM 5, PREMIUM 2, MOTOR INSURANCE 5, CAR INSURANCE 5, VEHICLE INSURANCE 5, ' +
        'LIFE INSURANCE 5, FIRE INSURANCE 5, THIRD PARTY INSURANCE 5, POLICY RENEWAL 4, LEADWAY 3, AIICO 3, ' +
        'MANSARD 3, NEM INSURANCE 5, CUSTODIAN INSURANCE 5',
      taxes:
        'TAX 3, TAXES 3, PAYE 3, PAYE REMITTANCE 4, INCOME TAX 4, COMPANY TAX 4, VAT 3, WHT 3, ' +
        'WITHHOLDING TAX 4, FIRS 4, LIRS 4, TCC 3, TAX CLEARANCE 4, LAND USE CHARGE 4, TENEMENT RATE 4, ' +
        'TENEMENT 3, STAMP DUTY 4, CUSTOMS DUTY 4, IMPORT DUTY 4, ' +
        'GOVERNMENT LEVY 5, GOVT LEVY 5, STATE LEVY 5, LGA LEVY 5, LOCAL GOVERNMENT LEVY 5, SIGNAGE LEVY 5, ' +
        'VEHICLE LICENCE 4, VEHICLE LICENSE 4, DRIVERS LICENCE 4, DRIVERS LICENSE 4, DRIVING LICENCE 4, ' +
        'DRIVING LICENSE 4, ' +
        'ROAD WORTHINESS 4, ROADWORTHINESS 4, VEHICLE PARTICULARS 4, CAR PARTICULARS 4, NUMBER PLATE 4, ' +
        'PASSPORT FEE 4, CAC REGISTRATION 4, CAC 2, COURT FEE 4, COURT FEES 4',
      pidgin: 'LIGHT MONEY 4, NEPA BILL 4',
      yoruba: 'OWO INA 4, INA MONAMONA 4, MONAMONA 3, OWO OMI 3',
      igbo: 'EGO OKU 4, EGO MMIRI 3',
      hausa: 'WUTA 3, WUTAR LANTARKI 4, LANTARKI 4, KUDIN RUWA 3, KATIN WAYA 3',
    }),
  },
  {
    intent: 'upkeep',
    label: 'Upkeep',
    terms: terms({
      english:
        'UPKEEP 4, UPKIP 4, POCKET MONEY 4, FEEDING 3, FOOD 2, FOODSTUFF 3, SUPPORT 2, ASSISTANCE 2, HELP 1, KIDS 2, CHILDREN 2, SOUP 2, ' +
        'FOODSTUFFS 3, HOUSEKEEPING 4, HOUSE KEEPING 4, MAINTENANCE 2, FAMILY SUPPORT 3, MARKET MONEY 3, SOUP MONEY 3, RATION 2, GROCERIES 2, SUSTENANCE 3',
      // "Sapa" is being broke: money against it is help, not fraud.
      pidgin: 'CHOP MONEY 4, CHOP 2, SAPA 2',
      yoruba: 'OUNJE 3, OWO OUNJE 4, OWO OBE 4, ONJE 3, OWO ONJE 4',
      igbo: 'NRI 3, EGO NRI 4, EGO OFE 4, OFE 2',
      hausa: 'ABINCI 3, KUDIN ABINCI 4, CEFANE 4, KUDIN MIYA 4, TAIMAKO 2',
      efikIbibio: 'UDIA 3, OKUK UDIA 4, NDIDIA 3',
      edo: 'EVBARE 3',
      // Urhobo "emu", food: only after IGHO (money), since EMU alone is the bird.
      urhobo: 'IGHO EMU 4',
      tiv: 'KWAGHYAN 3',
      fulfulde: 'NYAAMDU 3',
    }),
  },
  {
    intent: 'dues',
    label: 'Dues',
    terms: terms({
      english:
        'DUES 4, LEVY 4, ASSOCIATION 2, MEMBERSHIP 3, SUBSCRIPTION 2, CLUB 2, GYM 2, ALUMNI 2, PRACTISING FEE 3, ESTATE 1, ' +
        'PRACTICING FEE 3, CDA 3, TOWN UNION 3, AGE GRADE 4, AGEGRADE 4, KINDRED 3, VILLAGE MEETING 4, ' +
        'FAMILY MEETING 4, AUGUST MEETING 4, MEETING 2, COMMUNITY 2, DEVELOPMENT LEVY 4, ' +
        'VIGILANTE 3, ESTATE SERVICE CHARGE 4, ESTATE SVC CHG 4, LANDLORD ASSOCIATION 4, ' +
        'LANDLORDS ASSOCIATION 4, RESIDENTS ASSOCIATION 4, NURTW 3, ICAN 3, COREN 3, CIBN 3',
      yoruba: 'OWO EGBE 4, EGBE 3, OWO IPADE 4, IPADE 3',
      igbo: 'EGO NZUKO 4, NZUKO 3, EGO OTU 4, UMUNNA 4, OGBO 3, EGO OBODO 4, OBODO 2',
      hausa: 'KUNGIYA 4, KUDIN TARO 4',
    }),
  },
  {
    intent: 'medical',
    label: 'Medical',
    terms: terms({
      english:
        'HOSPITAL 4, HOSP 4, MEDICAL 4, MED 3, DRUGS 3, DRUG 3, MEDICINE 3, PHARMACY 3, CLINIC 3, TREATMENT 3, ' +
        'LAB 3, SURGERY 4, ANTENATAL 4, SCAN 2, CONSULTATION 3, HMO 3, DENTAL 3, ' +
        'MEDS 3, MEDICATION 3, PRESCRIPTION 3, CHEMIST 3, DOCTOR 2, NURSE 2, LAB TEST 4, BLOOD TEST 4, XRAY 3, ' +
        'X RAY 3, ULTRASOUND 3, MRI 3, ECG 3, PHYSIO 3, PHYSIOTHERAPY 3, THERAPY 2, OPTICIAN 3, ' +
        'DENTIST 3, CHILDBIRTH 3, POSTNATAL 4, IMMUNIZATION 3, IMMUNISATION 3, VACCINE 3, VACCINATION 3, ' +
        'MALARIA 3, TYPHOID 3, CAESAREAN 4, DIALYSIS 4, CHEMO 4, CHEMOTHERAPY 4, ' +
        'SICK 2, SICKNESS 3, ILLNESS 3, HEALTH 2, HEALTHCARE 3, NHIS 4, HEALTH INSURANCE 4, HERBAL 3',
      yoruba:
        'ILE IWOSAN 5, IWOSAN 4, ASIBITI 4, OOGUN 4, OWO OOGUN 5, OWO AGBO 4, ALAGBO 3, ILERA 3, AISAN 3, OWO ITOJU 4',
      igbo: 'OGWU 4, EGO OGWU 5, ULO OGWU 5, ORIA 3, DIBIA 3',
      hausa: 'MAGANI 4, KUDIN MAGANI 5, LIKITA 3, JINYA 3, RASHIN LAFIYA 4',
      efikIbibio: 'IBOK 4, UFOK IBOK 5',
      tiv: 'ICIGH 3, INYAREGH I ICIGH 4',
      // Fulfulde "lekki" (medicine) only after CEEDE (money): Lekki alone is the Lagos district.
      fulfulde: 'CEEDE LEKKI 5, SAFAARA 3',
      optical:
        'OPTICAL 3, OPTOMETRIST 3, OPHTHALMOLOGIST 3, EYE TEST 4, EYE CHECK 4, EYE CLINIC 4, EYE DROPS 4, ' +
        'EYE GLASSES 4, EYEGLASSES 4, GLASSES 2, SPECTACLES 3, CONTACT LENS 3, CONTACT LENSES 3, LENSES 2, ' +
        'CATARACT 4, GLAUCOMA 4, HEARING AID 4',
      dental:
        'TOOTH 2, TEETH 2, TOOTHACHE 3, DENTURE 3, DENTURES 3, BRACES 3, ROOT CANAL 4, TOOTH EXTRACTION 4, ' +
        'ORTHODONTIST 3, DENTAL CLINIC 4, SCALING AND POLISHING 4',
      pharmacy: 'PHARMACIST 3, PATENT MEDICINE 4, PMV 2, BP DRUGS 4, INSULIN 3, ANTIBIOTICS 3, PARACETAMOL 3',
    }),
  },
  {
    intent: 'donation',
    label: 'Donation',
    terms: terms({
      english:
        'TITHE 4, OFFERING 4, DONATION 4, CHURCH 2, MOSQUE 2, CHARITY 3, THANKSGIVING 4, HARVEST 2, BUILDING FUND 4, SEED 2, WELFARE 2, ' +
        'BUILDING LEVY 4, CHURCH LEVY 4, CHURCH DUES 4, CHURCH PROJECT 4, SEED OF FAITH 4, SOWING 3, VOW 4, ' +
        'PLEDGE 3, FIRST FRUIT 4, FIRSTFRUIT 4, PARTNERSHIP 2, ALMS 4, ' +
        'MISSION 2, MISSIONS 2, EVANGELISM 3, CRUSADE 3, MINISTRIES 2, CHAPEL 3, PARISH 3, CATHEDRAL 3, DIOCESE 3, FELLOWSHIP 2, CHOIR 2, SYNAGOGUE 3, ' +
        'RCCG 3, MFM 3, ECWA 3, DEEPER LIFE 3, LIVING FAITH 3, COZA 3, DUNAMIS 3, CATHOLIC 3, ANGLICAN 3, ' +
        'METHODIST 3, BAPTIST 3, PENTECOSTAL 2, CELESTIAL 3, CHERUBIM 3, ' +
        'ORPHANAGE 3, MOTHERLESS 3, ORPHANS 3, ORPHAN 3, WIDOWS 3, LESS PRIVILEGED 3, NEEDY 2, ALMAJIRI 3, ' +
        'IDP 2, DISPLACED 2, RAMADAN 2, NGO 2, FOUNDATION 2, OUTREACH 2, RELIEF 2, FUNDRAISING 3, ' +
        'FUNDRAISER 3, GOFUNDME 3',
      islamic:
        'ZAKAT 4, ZAKKA 4, ZAKAH 4, SADAQAH 4, SADAQA 4, SADAKA 4, MASJID 3, WAQF 4, FITRAH 4, ZAKATUL 4, IFTAR 3',
      yoruba: 'IDAMEWA 4, OWO ORE 4, IDUPE 4, SAARA 3, SOOSI 3, MOSALASI 3, ILE IJOSIN 3',
      igbo: 'UKA 3, CHOCHI 3',
      hausa: 'COCI 3, MASALLACI 3, GUDUMMAWA 3',
      efikIbibio: 'UFOK ABASI 4',
    }),
  },
  {
    intent: 'transport',
    label: 'Transport',
    terms: terms({
      english:
        'TRANSPORT 4, FARE 3, TRANSPORTATION 4, FUEL 3, PETROL 3, LOGISTICS 3, DISPATCH 2, WAYBILL 3, BOLT 3, ' +
        'UBER 3, RIDE 2, TAXI 3, KEKE 3, OKADA 3, FLIGHT 3, BUS 3, BRT 3, CAR HIRE 4, ' +
        'TFARE 3, TRANSPO 3, INDRIVE 3, RIDA 3, TAXIFY 3, DANFO 3, NAPEP 3, MARUWA 3, ADAIDAITA 3, ACHABA 3, ' +
        'BIKE 2, TRAIN 3, NRC 3, FERRY 3, BOAT 2, AIR TICKET 4, TICKET 2, AIRFARE 4, ' +
        'AIR PEACE 4, ARIK 3, IBOM AIR 4, GUO 3, GIGM 3, GIGL 3, CHISCO 3, YOUNG SHALL GROW 4, HAULAGE 3, ' +
        'TRUCK 2, TRAILER 2, TIPPER 2, LORRY 2, FREIGHT 3, SHIPPING 3, CARGO 3, COURIER 3, DHL 3, ' +
        'DISPATCH RIDER 4, WAY BILL 4, TOLL 2, TOLL GATE 3, PARKING 2, PMS 3, DIESEL 3, FILLING STATION 3, ' +
        'TRAVEL 3, TRAVELLING 3, TRAVELING 3, TRIP 2, JOURNEY 3, CAB 3, BUS FARE 4, MOTOR PARK 3, PARK TICKET 3, ' +
        'SHUTTLE 3, SHUTTLE BUS 4, SEAT BOOKING 4, SEAT RESERVATION 4, BUS SEAT 4, INTERSTATE 3, LUGGAGE 2',
      pidgin: 'MOTO 3, MOTA 3, MOTOR 2, TRANSPORT MONEY 4',
      yoruba: 'OWO OKO 4, AYOKELE 3, OKO OFURUFU 4, OWO IRINNA 4, IRINNA 3',
      igbo: 'UGBO 3, UGBO ALA 4, UGBO ELU 4, EGO NJEM 4, NJEM 3',
      hausa: 'KUDIN HAWA 4, KUDIN MAI 4, JIRGI 3, ADAIDAITA SAHU 4, KUDIN MOTA 4, KUDIN TAFIYA 4, TAFIYA 3, SUFURI 3',
      efikIbibio: 'OKUK ISAN 4',
    }),
  },
  {
    intent: 'gift',
    label: 'Gift',
    terms: terms({
      english:
        'GIFT 3, BIRTHDAY 3, BDAY 3, HBD 3, WEDDING 3, ANNIVERSARY 3, THANK YOU 3, THANKS 3, THANK 2, THNX 3, ' +
        'TNX 3, THX 3, APPRECIATION 4, CONGRATS 3, CONGRATULATIONS 3, CHRISTMAS 3, XMAS 3, NEW YEAR 3, ' +
        'SALLAH 3, EID 3, MUBARAK 2, ' +
        'SURPRISE 2, TIP 2, WITH LOVE 3, BABY SHOWER 3, NAMING CEREMONY 3, NAMING 2, CHRISTENING 3, ' +
        'DEDICATION 2, HOUSEWARMING 3, HOUSE WARMING 3, GRADUATION 3, VALENTINE 3, MOTHERS DAY 3, FATHERS DAY 3, ' +
        'EASTER 3, ENGAGEMENT 3, INTRODUCTION 2, TRADITIONAL MARRIAGE 3, MARRIAGE 2, BRIDE PRICE 4, DOWRY 3, ' +
        'BURIAL 2, FUNERAL 2, CONDOLENCE 3, SYMPATHY 3, GET WELL SOON 3',
      pidgin: 'SMALL SOMETHING 4, DASH 3, ENJOY 2, OWAMBE 3, GIVEAWAY 3',
      yoruba:
        'EBUN 3, OJO IBI 3, E SE 3, O SE 3, ADUPE 3, AYAJO 3, ILEYA 3, IGBEYAWO 3, ISOMOLORUKO 3, IKOMOJADE 3, ' +
        'EKU ODUN 3, E KU ODUN 3, IYEDUN 3, E KU IYEDUN 3',
      igbo: 'DAALU 3, ONYINYE 2, EKERESIMESI 3, EKELE 3, IMELA 3, IGBA NKWU 3',
      hausa: 'KYAUTA 3, NA GODE 3, GODIYA 3, GAISUWA 3, BARKA 2, BIKIN AURE 3, BIKIN SUNA 3',
      efikIbibio: 'SOSONGO 3',
      edo: 'URHUESE 3',
      fulfulde: 'JAARAMA 3',
    }),
  },
];

/**
 * Terms that say how, when or how much rather than what for, so they decide only when nothing more
 * specific is said. A word of buying or a unit (1) gives way to what was bought ("drug purchase" is
 * medical, "waybill for the goods" transport), where the documents of a trade (invoice, LPO, supply)
 * do not: a supplier is paid for the diesel it supplied; an occasion (2) to a purpose ("ram for sallah" is a
 * purchase, "xmas bonus" a salary); a share or a payment word (3) to the occasion or the purpose it
 * is for ("wedding contribution" is a gift, "ugwo ulo", the house payment, is rent). Other terms are 0.
 */
export const DEFERRING_TERMS = new Map<string, number>([
  ...[
    'POS',
    'PURCHASE',
    'WEB PURCHASE',
    'ORDER',
    'GOODS',
    'SALES',
    'SALE',
    'BOUGHT',
    'BUY',
    'BUYING',
    'CHECKOUT',
    'DELIVERY',
    'MARKET',
    'ITEMS',
    'MATERIALS',
    'SERVICES',
    'CONTRACT',
    'RETAIL',
    'RESTOCK',
    'SHOPPING',
    'OJA',
    'AHIA',
    'ZUTARA',
    'KASUWA',
    'KAYA',
    'HAJA',
    'SAYE',
    'SIYAYYA',
    'URUA',
    'EKI',
    'KASUA',
    'LUUMO',
    'CRATE',
    'BASKET',
    'DOZEN',
    'BUNDLE',
    'SACK',
    'BAG',
    'BAGS',
    'CARTON',
    'CARTONS',
    'PCS',
    'PIECES',
    'YARDS',
    'BALE',
    'BALES',
    'TRAYS',
    'TUBERS',
    'KG',
    'KGS',
    'LITRES',
    'LITERS',
    'TONS',
    'TONNES',
    'GALLON',
    'JERRYCAN',
    'KEG',
    'MUDU',
    'DERICA',
    'WRAPS',
    // How a merchant was paid, not what for: a reversal or a refund of it is a refund ("POS PURCHASE REVERSAL").
    'POS PURCHASE',
    'POS PAYMENT',
    'POS PMT',
    'CARD PURCHASE',
    'WEB PMT',
    'ONLINE PURCHASE',
    'MERCHANT',
    'MERCHANT PAYMENT',
    'MERCHANT PMT',
    'MERCHANT PYMT',
    'MERCHANT TRF',
    'QR PAYMENT',
    'QR PMT',
    'NQR',
  ].map((t) => [t, 1] as const),
  ...[
    'BIRTHDAY',
    'BDAY',
    'HBD',
    'WEDDING',
    'ANNIVERSARY',
    'CHRISTMAS',
    'XMAS',
    'NEW YEAR',
    'SALLAH',
    'EID',
    'MUBARAK',
    'EKERESIMESI',
    'OJO IBI',
    'BABY SHOWER',
    'NAMING CEREMONY',
    'NAMING',
    'CHRISTENING',
    'DEDICATION',
    'HOUSEWARMING',
    'HOUSE WARMING',
    'GRADUATION',
    'VALENTINE',
    'MOTHERS DAY',
    'FATHERS DAY',
    'EASTER',
    'ENGAGEMENT',
    'INTRODUCTION',
    'TRADITIONAL MARRIAGE',
    'MARRIAGE',
    'BURIAL',
    'FUNERAL',
    'AYAJO',
    'ILEYA',
    'IGBEYAWO',
    'ISOMOLORUKO',
    'IKOMOJADE',
    'EKU ODUN',
    'IGBA NKWU',
    'BIKIN AURE',
    'BIKIN SUNA',
    'BARKA',
    'OWAMBE',
  ].map((t) => [t, 2] as const),
  ...['CONTRIBUTION', 'CONTRI', 'UGWO'].map((t) => [t, 3] as const),
]);

/** The generic intent: readable, plausible, but no specific purpose. */
export const GENERAL_PAYMENT = { intent: 'payment', label: 'General payment' } as const;

/**
 * Words that name a payment without saying what for: the general payment intent. Money is OWO (Yoruba), EGO (Igbo),
 * KUDI (Hausa), OKUK (Efik), IGHO (Edo, Urhobo), INYAREGH (Tiv), CEEDE (Fulfulde).
 */
export const GENERIC_TERMS = new Set([
  'PAYMENT',
  'PAYMENTS',
  'PAY',
  'PYMT',
  'PMT',
  'PYMNT',
  'DEPOSIT',
  'TOP',
  'TOPUP',
  'FUND',
  'FUNDS',
  'FUNDING',
  'CASH',
  'MONEY',
  'BALANCE',
  'BAL',
  // An instalment says how it is paid, not what for: "2nd instalment" ("3 of 6" still reads as a loan's).
  'INSTALMENT',
  'INSTALLMENT',
  'INSTALMENTS',
  'INSTALLMENTS',
  'PART',
  'FULL',
  'REMAINING',
  'TEST',
  'TESTING',
  'SETTLEMENT',
  'SETTLE',
  'MISC',
  'MISCELLANEOUS',
  'OTHERS',
  'GENERAL',
  'OWO',
  'EGO',
  'KUDI',
  'KUDIN',
  'OKUK',
  'IGHO',
  'INYAREGH',
  'CEEDE',
  // A statement's abbreviations for a deposit and a cheque.
  'DEP',
  'CHQ',
  'CHEQUE',
  'CHEQ',
]);

/** Phrases that name no purpose, whatever words they hold: "services rendered" names no purchase, an advance-fee "contract approval" none either. */
export const GENERIC_PHRASES = ['SERVICES RENDERED', 'SERVICE RENDERED', 'CONTRACT APPROVAL', 'CONTRACT RELEASE'];

/** Words that say only "money moved": a transfer with no stated purpose. */
export const TRANSFER_TERMS = new Set([
  'NIP',
  'NIPS',
  'TRF',
  'TRSF',
  'TFR',
  'TRANSFER',
  'TRANS',
  'FT',
  'FIP',
  'FRM',
  'FROM',
  'MOB',
  'MOBILE',
  'USSD',
  'INWARD',
  'NEFT',
  'IFO',
  'SEND',
  'SENT',
  'CREDIT',
  'IB',
  'WEB',
  'APP',
  'ONLINE',
  'INTERBANK',
  'INSTANT',
  'SELF',
  'OWN',
  'CR',
  'CRD',
  'INFLOW',
]);

/** The transfer words that name the transfer itself, so "funds transfer" says only that money moved (and "money sent" does not). */
export const TRANSFER_NOUNS = new Set(['TRANSFER', 'TRANSFERS', 'TRF', 'TRSF', 'TFR', 'TRANS']);

export { FRAUD_TERMS, TOPICS } from './risk-words.js';

export const MONTHS = new Set([
  'JAN',
  'FEB',
  'MAR',
  'APR',
  'MAY',
  'JUN',
  'JUL',
  'AUG',
  'SEP',
  'SEPT',
  'OCT',
  'NOV',
  'DEC',
  'JANUARY',
  'FEBRUARY',
  'MARCH',
  'APRIL',
  'JUNE',
  'JULY',
  'AUGUST',
  'SEPTEMBER',
  'OCTOBER',
  'NOVEMBER',
  'DECEMBER',
]);
