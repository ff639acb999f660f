/** The report's period is read as every time a person types is: see instant.ts. */
export { lagosDayStart, parseLocalInstant as parseInstant, TIME_ZONE as REPORT_TIME_ZONE } from './instant.js';
