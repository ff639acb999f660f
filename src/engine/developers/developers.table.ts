import type { Generated } from 'kysely';

export interface DeveloperTable {
  id: string;
  /** The number its events, delivery logs and attempts name it by (migration 0020): the next one for each new developer. */
  seq: number;
  business_name: string;
  webhook_url: string | null;
  webhook_secret: string;
  /** After a rotation, the old secret still signs until this time (sandbox clock). */
  webhook_secret_previous: string | null;
  webhook_secret_previous_until: string | null;
  /** How far this developer's virtual clock is ahead of real time (decisions: Tenancy, clocks and reset). */
  clock_offset_ms: Generated<number>;
  created_at: string;
}

export interface ApiKeyTable {
  id: string;
  developer_id: string;
  key_hash: string;
  key_hint: string;
  created_at: string;
  revoked_at: string | null;
}

export type { Generated };
