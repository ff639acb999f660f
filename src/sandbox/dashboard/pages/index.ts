import type { PageHandler } from '../page-types.js';
import { clock } from './clock.js';
import { find } from './find.js';
import { magic } from './magic.js';
import { overview } from './overview.js';
import { request, requests } from './requests.js';
import { suspenseItem } from './suspense-item.js';
import { suspenseList } from './suspense.js';
import { transaction } from './transaction.js';
import { wallet, wallets } from './wallets.js';
import { webhook, webhooks } from './webhooks.js';

/** Every page by its path (the URL map the browser tests navigate by). */
export const PAGES: Record<string, PageHandler> = {
  '/': overview,
  '/wallets': wallets,
  '/wallets/:id': wallet,
  '/transactions/:id': transaction,
  '/find': find,
  '/suspense': suspenseList,
  '/suspense/:id': suspenseItem,
  '/webhooks': webhooks,
  '/webhooks/:id': webhook,
  '/clock': clock,
  '/requests': requests,
  '/requests/:id': request,
  '/magic': magic,
};
