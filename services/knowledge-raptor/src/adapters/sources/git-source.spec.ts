import { tempDir } from '@inquest/testing';
import { GitSourceConnector } from './git-source';

const source = (url: string) => ({
  name: 'rb',
  kind: 'git' as const,
  url,
  sync_interval_ms: 60_000,
});

describe('GitSourceConnector file:// URLs', () => {
  it('refuses every file:// URL when the operator allows no directory', async () => {
    const git = new GitSourceConnector({ git: '/bin/false' });
    await expect(git.fetch(source(`file://${tempDir()}`))).rejects.toThrow(
      /file:\/\/ git sources are off .*INQUEST_KB_GIT_FILE_ROOTS/,
    );
  });

  it('refuses a file:// URL outside the allowed directories, or naming a host', async () => {
    const root = tempDir();
    const git = new GitSourceConnector({ git: '/bin/false', fileRoots: [root] });
    for (const url of ['file:///etc', `file://${root}-other/repo`, `file://host${root}/repo`])
      await expect(git.fetch(source(url))).rejects.toThrow(/outside the directories/);
    // inside the root the check passes and git runs (here /bin/false, which fails)
    await expect(git.fetch(source(`file://${root}/repo`))).rejects.toThrow(/^git clone/);
  });
});
