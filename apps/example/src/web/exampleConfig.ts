/** One MCP server the page connects to, as the host describes it at `/config.json`. */
export interface ServerConfig {
  name: string;
  era: 'legacy' | 'modern';
  url: string;
}

/** Reads the host's `/config.json` (the servers run on ports picked at start). */
export async function loadServers(signal?: AbortSignal): Promise<ServerConfig[]> {
  const response = await fetch('/config.json', { signal });
  if (!response.ok) throw new Error(`config.json answered ${response.status}`);
  const body = (await response.json()) as { servers?: ServerConfig[] };
  return body.servers ?? [];
}

/** Where the host runs the MCP clients (`/config.json`'s `mode`): `page` unless it says `hosted`. */
export async function loadMode(): Promise<'hosted' | 'page'> {
  try {
    const response = await fetch('/config.json');
    const body = (await response.json()) as { mode?: unknown };
    return body.mode === 'hosted' ? 'hosted' : 'page';
  } catch {
    // The in-page mode reads the config again and shows why it could not.
    return 'page';
  }
}
