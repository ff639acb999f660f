import { createHash } from 'node:crypto';

const FIRST = [
  'ADEBAYO',
  'CHIOMA',
  'EMEKA',
  'FATIMA',
  'IBRAHIM',
  'NGOZI',
  'OLUWASEUN',
  'AISHA',
  'CHINEDU',
  'FUNMILAYO',
  'YUSUF',
  'AMAKA',
  'TUNDE',
  'HAUWA',
  'OBINNA',
  'TEMITOPE',
  'MUSA',
  'ADAEZE',
  'KEHINDE',
  'ZAINAB',
  'IFEANYI',
  'BUKOLA',
  'SANI',
  'NKECHI',
  'OLUMIDE',
  'HALIMA',
  'UCHENNA',
  'YETUNDE',
  'ABUBAKAR',
  'CHIDINMA',
];
const LAST = [
  'OKAFOR',
  'ADEYEMI',
  'BELLO',
  'EZE',
  'OGUNLEYE',
  'ABUBAKAR',
  'NWOSU',
  'ADEBAYO',
  'MOHAMMED',
  'OKONKWO',
  'OLADIPO',
  'USMAN',
  'CHUKWU',
  'BALOGUN',
  'DANJUMA',
  'OBI',
  'AKINYEMI',
  'GARBA',
  'NWANKWO',
  'OYELARAN',
  'IBRAHIM',
  'ONYEKACHI',
  'ADELEKE',
  'SULEIMAN',
  'EKWUEME',
  'OJO',
  'LAWAL',
  'UDEH',
  'FASHOLA',
  'YAKUBU',
];

/**
 * The account name the simulated bank returns for an ordinary account: the same bank and number
 * always give the same "SURNAME FIRSTNAME", as a real name enquiry would.
 * @example nigerianName('058', '0123456789') // e.g. 'OKAFOR CHIOMA'
 */
export function nigerianName(bankCode: string, accountNumber: string): string {
  const digest = createHash('sha256').update(`${bankCode}:${accountNumber}`).digest();
  return `${LAST[digest.readUInt16BE(0) % LAST.length]} ${FIRST[digest.readUInt16BE(2) % FIRST.length]}`;
}
