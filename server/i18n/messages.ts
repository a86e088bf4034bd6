/**
 * Every message the API answers with, in both languages. `{name}` placeholders are filled from params.
 * English is the default; `Accept-Language: zh…` selects Chinese.
 */
export const messages = {
  ok: { en: 'OK', zh: '成功' },
  created: { en: 'Created', zh: '创建成功' },
  logged_in: { en: 'Logged in', zh: '登录成功' },
  logged_out: { en: 'Logged out', zh: '已退出登录' },
  credentials_changed: { en: 'Login details changed, please log in again', zh: '登录信息已修改，请重新登录' },
  settings_saved: { en: 'Settings saved', zh: '设置已保存' },
  api_key_created: { en: 'API key created', zh: 'API 密钥已创建' },
  api_key_updated: { en: 'API key updated', zh: 'API 密钥已更新' },
  api_key_deleted: { en: 'API key deleted', zh: 'API 密钥已删除' },
  invalid_input: { en: 'Invalid value for {field}: {issue}', zh: '{field} 的值无效：{issue}' },
  invalid_json: { en: 'The request body is not valid JSON', zh: '请求体不是有效的 JSON' },
  unauthorized: { en: 'Unauthorised, please log in', zh: '未授权，请登录' },
  invalid_credentials: { en: 'Wrong username or password', zh: '用户名或密码错误' },
  token_expired: { en: 'Admin session expired, please log in again', zh: '管理员会话已过期，请重新登录' },
  api_key_invalid: { en: 'API key invalid or expired', zh: 'API 密钥无效或已过期' },
  current_password_wrong: { en: 'Current password verification failed', zh: '当前密码验证失败' },
  password_unchanged: {
    en: 'The new password must differ from the current one',
    zh: '新密码不能与当前密码相同',
  },
  admin_only: { en: 'Only an administrator can do this', zh: '只有管理员可以执行此操作' },
  permission_required: {
    en: 'This API key has no {permission} permission',
    zh: '此 API 密钥没有{permission}权限',
  },
  not_found: { en: 'Not found', zh: '未找到' },
  api_key_not_found: { en: 'API key not found', zh: 'API 密钥不存在' },
  api_key_name_taken: { en: 'An API key with this name already exists', zh: '已存在同名的 API 密钥' },
  api_key_taken: { en: 'This key is already in use, please choose another', zh: '此密钥已被使用，请换一个' },
  api_key_expiry_past: { en: 'The expiry time must be in the future', zh: '过期时间必须晚于当前时间' },
  username_taken: { en: 'This username is already taken', zh: '该用户名已被使用' },
  too_many_attempts: {
    en: 'Too many failed logins, try again in {minutes} minutes',
    zh: '登录失败次数过多，请 {minutes} 分钟后再试',
  },
  slug_taken: { en: 'Link suffix is already taken, please try another', zh: '链接后缀已被占用，请换一个' },
  share_expiry_past: { en: 'The expiry time must be in the future', zh: '过期时间必须晚于当前时间' },
  wrong_password: { en: 'Wrong password', zh: '密码错误' },
  password_required: { en: 'This share is protected by a password', zh: '此分享受密码保护' },
  paste_created: { en: 'Paste created', zh: '文本分享已创建' },
  paste_updated: { en: 'Paste updated', zh: '文本分享已更新' },
  paste_deleted: { en: 'Paste deleted', zh: '文本分享已删除' },
  pastes_deleted: {
    en: '{deleted} deleted, {missing} not found',
    zh: '已删除 {deleted} 个，{missing} 个未找到',
  },
  pastes_cleared: { en: '{deleted} expired or used-up pastes removed', zh: '已清除 {deleted} 个过期或已用完的文本分享' },
  paste_not_found: { en: 'Paste not found', zh: '文本分享不存在' },
  paste_expired: { en: 'This paste has expired', zh: '此文本分享已过期' },
  paste_used_up: { en: 'This paste has reached its view limit', zh: '此文本分享已达到最大查看次数' },
  body_too_large: { en: 'The request body is larger than {limit}', zh: '请求体超过 {limit}' },
  internal: { en: 'Internal server error', zh: '服务器内部错误' },
} as const satisfies Record<string, { en: string; zh: string }>;

export type MessageKey = keyof typeof messages;
export type Lang = 'en' | 'zh';
export type MessageParams = Record<string, string | number>;

export function translate(key: MessageKey, lang: Lang, params: MessageParams = {}): string {
  return messages[key][lang].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/** zh, zh-CN, zh-Hans… → Chinese; anything else → English. */
export function languageFrom(acceptLanguage: string | undefined): Lang {
  const first = acceptLanguage?.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('zh') ? 'zh' : 'en';
}
