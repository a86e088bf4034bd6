import type { CreatedApiKey } from '../../../../contract/api-keys';

/**
 * ShareX custom uploaders (`.sxcu`, a JSON file ShareX imports on double-click) for one API key: files and
 * screenshots through `POST /api/upload`, text through `POST /api/paste`, the share link read from the answer.
 *
 * The `{…}` syntax is ShareX's since 14 (older files used `$…$`; ShareX migrates files whose Version is 13.7.1 or
 * lower, so ours says a later one). In a JSON body ShareX JSON-escapes `{input}`; `{json:path}` reads the answer.
 * sharex.test.ts posts exactly what these files describe to a real server. They hold the whole key, which only
 * the answer to its creation carries: the page offers them there and nowhere else.
 */
export interface SxcuFile {
  Version: string;
  Name: string;
  DestinationType: string;
  RequestMethod: 'POST';
  RequestURL: string;
  Headers: Record<string, string>;
  Body: 'MultipartFormData' | 'JSON';
  FileFormName?: string;
  Data?: string;
  URL: string;
  ErrorMessage: string;
}

export interface ShareXUploaders {
  /** With the key's file permission. */
  files?: SxcuFile;
  /** With the key's text permission. */
  text?: SxcuFile;
}

const SXCU_VERSION = '17.0.0';

/**
 * `apiBase`: where the API answers (the backend base URL); `appOrigin`: where the share pages are (this app's
 * origin), since the answers carry paths (`/file/{slug}`) or slugs, not whole links.
 */
export function shareXUploaders(
  key: Pick<CreatedApiKey, 'key' | 'name' | 'file_permission' | 'text_permission'>,
  apiBase: string,
  appOrigin: string,
): ShareXUploaders {
  const common = {
    Version: SXCU_VERSION,
    RequestMethod: 'POST' as const,
    Headers: { Authorization: `ApiKey ${key.key}` },
    ErrorMessage: '{json:message}',
  };
  return {
    ...(key.file_permission && {
      files: {
        ...common,
        Name: `Clipstash files (${key.name})`,
        DestinationType: 'ImageUploader, FileUploader',
        RequestURL: `${apiBase}/api/upload`,
        Body: 'MultipartFormData',
        FileFormName: 'file',
        URL: `${appOrigin}{json:data.url}`,
      },
    }),
    ...(key.text_permission && {
      text: {
        ...common,
        Name: `Clipstash text (${key.name})`,
        DestinationType: 'TextUploader',
        RequestURL: `${apiBase}/api/paste`,
        Body: 'JSON',
        Data: '{"content":"{input}"}',
        URL: `${appOrigin}/paste/{json:data.slug}`,
      },
    }),
  };
}
