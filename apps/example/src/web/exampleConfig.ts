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
