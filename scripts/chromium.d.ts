import type { Browser } from 'playwright-core';
/** The Chromium binary: LEDGER_CHROMIUM, else Debian's /usr/bin/chromium. */
export declare const CHROMIUM: string;
/** Starts Chromium headless with the flags it needs offline, or fails saying how to install it. */
export declare function launchChromium(): Promise<Browser>;
