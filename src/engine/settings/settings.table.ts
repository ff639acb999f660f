/** Sandbox-wide values that survive a restart, such as the virtual clock's offset. */
export interface SettingTable {
  key: string;
  value: string;
}
