import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { WORK_DIR_PREFIX } from './process-video.handler.js';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the scratch folders of worker processes that died mid-job (SIGKILL, OOM), found by the
 * process id in their names; folders of live processes, this one included, are left alone. Answers
 * the folders removed.
 */
export async function removeDeadWorkDirs(tmpRoot: string): Promise<string[]> {
  const pattern = new RegExp(`^${WORK_DIR_PREFIX}(\\d+)-`);
  let entries: string[];
  try {
    entries = await readdir(tmpRoot);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of entries) {
    const pid = Number(pattern.exec(name)?.[1]);
    if (!pid || pid === process.pid || isAlive(pid)) continue;
    await rm(join(tmpRoot, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
