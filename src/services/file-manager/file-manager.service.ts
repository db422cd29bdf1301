import { join } from 'node:path';
import { Bean, Exposed } from '../../bean';
import { Role } from '../../common/principal';
import { RequestContext } from '../../common/request-context';
import { safeFileName, safeSegments, writeInside } from '../site-files/safe-path';
import { SitePaths } from '../site-files/site-paths';

/** Writes editor content into the current site's content directory (and nowhere else). */
@Bean('fileManagerServiceMock', Role.ADMIN)
export class FileManagerService {
  constructor(private readonly paths: SitePaths) {}

  /** Saves `content` as `<path>/<name>` relative to the site's content directory. */
  @Exposed(['String', 'String', 'String'])
  async saveContentToFile(name: string, path: string, content: string): Promise<void> {
    const relative = join(...safeSegments(path), safeFileName(name));
    await writeInside(this.paths.contentDir(RequestContext.current().site), relative, content);
  }
}
