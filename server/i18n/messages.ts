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
  cors_origin_not_allowed: {
    en: 'Pages on {origin} may not call this API (the server\'s CORS_ORIGINS does not list it)',
    zh: '{origin} 上的页面不能调用此 API（服务器的 CORS_ORIGINS 未列出它）',
  },
  permission_required: {
    en: 'This API key has no {permission} permission',
    zh: '此 API 密钥没有{permission}权限',
  },
  permission_required_any: {
    en: 'This API key has none of the permissions {permissions}',
    zh: '此 API 密钥没有以下任一权限：{permissions}',
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
  encrypted_payload_not_base64url: {
    en: 'An encrypted paste\'s {field} must be base64url without padding (A–Z, a–z, 0–9, - and _) of IV ‖ ciphertext ‖ tag',
    zh: '加密文本分享的 {field} 必须是 IV ‖ 密文 ‖ 认证标签 的 base64url 编码（不带填充，仅 A–Z、a–z、0–9、- 和 _）',
  },
  encrypted_payload_too_short: {
    en: 'An encrypted paste\'s {field} is too short: IV and tag alone take {min} bytes',
    zh: '加密文本分享的 {field} 过短：仅 IV 和认证标签就占 {min} 字节',
  },
  file_request_created: { en: 'File request created', zh: '文件收集已创建' },
  file_request_updated: { en: 'File request updated', zh: '文件收集已更新' },
  file_request_deleted: { en: 'File request deleted', zh: '文件收集已删除' },
  file_request_not_found: { en: 'File request not found', zh: '文件收集不存在' },
  file_request_closed: { en: 'This file request is closed', zh: '此文件收集已关闭' },
  file_request_expired: { en: 'This file request has expired', zh: '此文件收集已过期' },
  file_request_full: { en: 'This file request has received all the files it accepts', zh: '此文件收集已收满' },
  file_request_file_too_large: { en: 'The file is larger than this request accepts ({max})', zh: '文件超过此收集允许的大小（{max}）' },
  file_request_total_exceeded: {
    en: 'This file would take the request past its total of {max}',
    zh: '此文件会使收集的总大小超过 {max}',
  },
  file_request_type_not_allowed: { en: 'This type of file is not accepted here', zh: '此处不接受这种类型的文件' },
  file_request_type_mismatch: {
    en: 'The file\'s content does not match its name\'s type',
    zh: '文件内容与其文件名所示的类型不符',
  },
  file_request_grant_missing: { en: 'Open the request\'s link again to send files', zh: '请重新打开收集链接以发送文件' },
  file_request_grant_password_changed: {
    en: 'The request\'s password has changed; open the link again and enter the new one',
    zh: '此收集的密码已更改，请重新打开链接并输入新密码',
  },
  file_request_grant_expired: { en: 'Your permission to send files has expired; open the link again', zh: '发送文件的许可已过期，请重新打开链接' },
  file_request_grant_other: { en: 'This permission is for another file request', zh: '此许可属于另一个文件收集' },
  file_request_rate_limited: { en: 'Too many attempts, try again in {minutes} minutes', zh: '尝试次数过多，请 {minutes} 分钟后再试' },
  file_request_target_forbidden: {
    en: 'You cannot write to {path}: choose a folder of a mount you may write to',
    zh: '你不能写入 {path}：请选择你有写入权限的挂载点中的文件夹',
  },
  file_request_unavailable: {
    en: 'The creator of this request can no longer receive files',
    zh: '此收集的创建者已无法接收文件',
  },
  file_request_upload_not_found: { en: 'This upload is not known (finished, cancelled or abandoned)', zh: '此上传不存在（已完成、已取消或已被清理）' },
  storage_config_created: { en: 'Storage configuration created', zh: '存储配置已创建' },
  storage_config_updated: { en: 'Storage configuration updated', zh: '存储配置已更新' },
  storage_config_deleted: { en: 'Storage configuration deleted', zh: '存储配置已删除' },
  storage_config_default_set: { en: 'Default storage configuration set', zh: '已设为默认存储配置' },
  storage_config_not_found: { en: 'Storage configuration not found', zh: '存储配置不存在' },
  storage_config_in_use: {
    en: 'Files are stored with this configuration ({count}); delete them first',
    zh: '此存储配置中还有 {count} 个文件，请先删除它们',
  },
  storage_config_mounted: {
    en: 'This storage configuration is used by {count} mount points ({mounts}); remove them first',
    zh: '此存储配置正被 {count} 个挂载点使用（{mounts}），请先删除它们',
  },
  storage_config_is_default: {
    en: 'This is the default storage configuration; make another one the default first',
    zh: '这是默认存储配置，请先将其他配置设为默认',
  },
  local_storage_not_shared: {
    en: 'LOCAL storage keeps files on one server: with several instances on one database, use S3 (or share DATA_DIR with SHARED_DATA_DIR=1)',
    zh: '本地存储只把文件保存在一台服务器上：多个实例共用一个数据库时请使用 S3（或设置 SHARED_DATA_DIR=1 共享 DATA_DIR）',
  },
  storage_config_builtin: { en: 'The built-in local storage cannot be deleted', zh: '内置本地存储不能删除' },
  storage_config_unset_default: {
    en: 'There must be a default storage configuration; make another one the default instead',
    zh: '必须有一个默认存储配置，请改为将其他配置设为默认',
  },
  storage_forbidden: { en: 'No permission to use this storage configuration', zh: '没有使用此存储配置的权限' },
  storage_unavailable: { en: 'The storage could not be reached: {reason}', zh: '无法访问存储：{reason}' },
  storage_delete_failed: {
    en: 'The storage did not delete the file ({reason}); the record was kept',
    zh: '存储未能删除文件（{reason}），记录已保留',
  },
  storage_test_finished: { en: 'Storage test: {passed} of {total} checks passed', zh: '存储测试：{total} 项检查中 {passed} 项通过' },
  step_connect_ok: { en: 'Connected and signed in', zh: '已连接并登录' },
  step_connect_failed: { en: 'Could not connect or sign in: {reason}', zh: '无法连接或登录：{reason}' },
  step_list_ok: { en: 'The base folder can be listed', zh: '可以列出基础文件夹' },
  step_list_failed: { en: 'The base folder cannot be listed: {reason}', zh: '无法列出基础文件夹：{reason}' },
  step_write_ok: { en: 'A test file was written', zh: '已写入测试文件' },
  step_write_failed: { en: 'Writing a test file failed: {reason}', zh: '写入测试文件失败：{reason}' },
  step_read_ok: { en: 'The test file was read back unchanged', zh: '已读回测试文件，内容一致' },
  step_read_failed: { en: 'Reading the test file back failed: {reason}', zh: '读回测试文件失败：{reason}' },
  step_delete_ok: { en: 'The test file was deleted', zh: '已删除测试文件' },
  step_delete_failed: { en: 'Deleting the test file failed: {reason}', zh: '删除测试文件失败：{reason}' },
  step_not_tried: { en: 'Not tried: an earlier step failed', zh: '未执行：前面的步骤失败' },
  check_read_ok: { en: 'The storage can be listed', zh: '可以列出存储内容' },
  check_read_failed: { en: 'The storage cannot be listed: {reason}', zh: '无法列出存储内容：{reason}' },
  check_write_ok: { en: 'A test object was written, read back and deleted', zh: '测试对象已写入、读回并删除' },
  check_write_failed: { en: 'Writing or deleting a test object failed: {reason}', zh: '写入或删除测试对象失败：{reason}' },
  check_cors_ok: { en: 'CORS allows uploads from {origin} and exposes ETag', zh: 'CORS 允许来自 {origin} 的上传并暴露 ETag' },
  check_cors_local: {
    en: 'Served by this server, which allows any origin and exposes ETag',
    zh: '由本服务器提供，允许任意来源并暴露 ETag',
  },
  check_cors_blocked: {
    en: 'CORS does not allow PUT from {origin}: {reason}',
    zh: 'CORS 不允许来自 {origin} 的 PUT：{reason}',
  },
  check_cors_no_etag: {
    en: 'CORS does not expose the ETag header; add ETag to the exposed headers of the bucket CORS rule',
    zh: 'CORS 未暴露 ETag 响应头，请在存储桶 CORS 规则的暴露头中加入 ETag',
  },
  check_presign_ok: { en: 'An upload through a presigned URL worked', zh: '通过预签名 URL 上传成功' },
  check_presign_failed: { en: 'Uploading through a presigned URL failed: {reason}', zh: '通过预签名 URL 上传失败：{reason}' },
  file_uploaded: { en: 'File uploaded', zh: '文件上传成功' },
  upload_url_created: { en: 'Upload URL created', zh: '上传地址已创建' },
  file_updated: { en: 'File updated', zh: '文件已更新' },
  file_deleted: { en: 'File deleted', zh: '文件已删除' },
  files_deleted: {
    en: '{deleted} deleted, {missing} not found, {failed} failed',
    zh: '已删除 {deleted} 个，{missing} 个未找到，{failed} 个失败',
  },
  file_not_found: { en: 'File not found', zh: '文件不存在' },
  file_expired: { en: 'This file has expired', zh: '此文件分享已过期' },
  file_used_up: { en: 'This file has reached its view limit', zh: '此文件分享已达到最大查看次数' },
  file_missing: { en: 'The file content is missing from storage', zh: '存储中缺少此文件的内容' },
  file_link_invalid: {
    en: 'This file link is invalid or has expired; open the share page again',
    zh: '此文件链接无效或已过期，请重新打开分享页面',
  },
  file_too_large: {
    en: 'The file ({fileSize}) is larger than the maximum upload size ({maxUploadSize})',
    zh: '文件大小（{fileSize}）超过最大上传限制（{maxUploadSize}）',
  },
  quota_exceeded: {
    en: 'Insufficient storage: the file is {fileSize}, {remaining} of {total} remain',
    zh: '存储空间不足：文件大小 {fileSize}，剩余 {remaining}，总容量 {total}',
  },
  upload_not_multipart: { en: 'Send the file as multipart/form-data', zh: '请以 multipart/form-data 方式上传文件' },
  upload_no_file: { en: 'The form has no file', zh: '表单中没有文件' },
  upload_expired: { en: 'This upload has expired, please upload again', zh: '此上传已过期，请重新上传' },
  upload_not_received: { en: 'The uploaded file was not found in storage', zh: '在存储中未找到已上传的文件' },
  upload_size_mismatch: {
    en: 'The storage holds {actual} bytes, not the declared {declared}',
    zh: '存储中的文件为 {actual} 字节，而不是声明的 {declared} 字节',
  },
  upload_mismatch: { en: 'The {field} does not match this upload', zh: '{field} 与此上传不匹配' },
  upload_already_committed: { en: 'This upload is already complete', zh: '此上传已完成' },
  upload_body_too_large: { en: 'The body is larger than the declared {size} bytes', zh: '请求体超过声明的 {size} 字节' },
  signed_url_invalid: { en: 'The signature of this URL is invalid', zh: '此 URL 的签名无效' },
  signed_url_expired: { en: 'This URL has expired', zh: '此 URL 已过期' },
  body_too_large: { en: 'The request body is larger than {limit}', zh: '请求体超过 {limit}' },
  upload_is_multipart: {
    en: 'This is a multipart upload: finish it with multipart/complete',
    zh: '这是分片上传，请通过 multipart/complete 完成',
  },
  upload_cancelled: { en: 'Upload cancelled', zh: '上传已取消' },
  multipart_started: { en: 'Multipart upload started', zh: '分片上传已开始' },
  multipart_parts_signed: { en: 'Part upload URLs created', zh: '分片上传地址已创建' },
  multipart_aborted: { en: 'Multipart upload aborted', zh: '分片上传已中止' },
  multipart_upload_not_found: {
    en: 'This multipart upload does not exist: it was completed, aborted or has expired',
    zh: '此分片上传不存在：已完成、已中止或已过期',
  },
  multipart_too_many_parts: {
    en: 'A part size of {partSize} bytes would need {partCount} parts; at most 10000 are allowed',
    zh: '分片大小为 {partSize} 字节时需要 {partCount} 个分片，最多允许 10000 个',
  },
  multipart_part_too_large: {
    en: 'A part may be at most 5 GiB ({max} bytes)',
    zh: '单个分片最大为 5 GiB（{max} 字节）',
  },
  multipart_part_out_of_range: {
    en: 'Part {partNumber} is not part of this upload (parts 1 to {partCount})',
    zh: '分片 {partNumber} 不属于此上传（分片 1 到 {partCount}）',
  },
  multipart_part_missing: { en: 'Part {partNumber} has not been uploaded', zh: '分片 {partNumber} 尚未上传' },
  multipart_part_etag_mismatch: {
    en: 'Part {partNumber} does not match its ETag: the storage holds other bytes for it',
    zh: '分片 {partNumber} 与其 ETag 不符：存储中的该分片内容不同',
  },
  multipart_part_too_small: {
    en: 'Part {partNumber} is {size} bytes; every part but the last must be at least 5 MiB (5242880 bytes)',
    zh: '分片 {partNumber} 为 {size} 字节；除最后一个分片外，每个分片至少需要 5 MiB（5242880 字节）',
  },
  multipart_part_order: {
    en: 'Part numbers must be listed in ascending order, each once (at part {partNumber})',
    zh: '分片编号必须按升序排列且不重复（位于分片 {partNumber}）',
  },
  url_scheme_not_allowed: { en: 'Only http and https URLs can be fetched', zh: '只能获取 http 或 https 地址' },
  url_credentials_not_allowed: {
    en: 'URLs with a user name or password are not allowed',
    zh: '不允许包含用户名或密码的地址',
  },
  url_host_invalid: { en: 'The URL has no valid host', zh: '该地址没有有效的主机名' },
  url_host_unresolvable: { en: 'The host {host} could not be resolved', zh: '无法解析主机 {host}' },
  url_private_address: {
    en: 'Private or loopback addresses are not allowed ({target})',
    zh: '不允许访问私有或回环地址（{target}）',
  },
  url_link_local_address: {
    en: 'Link-local addresses are not allowed ({target})',
    zh: '不允许访问链路本地地址（{target}）',
  },
  url_metadata_address: {
    en: 'The cloud metadata address is never allowed ({target})',
    zh: '始终不允许访问云元数据地址（{target}）',
  },
  url_special_address: {
    en: 'Multicast, unspecified or reserved addresses are not allowed ({target})',
    zh: '不允许访问组播、未指定或保留地址（{target}）',
  },
  url_too_many_redirects: { en: 'The URL redirected more than {max} times', zh: '该地址重定向超过 {max} 次' },
  url_bad_redirect: { en: 'The URL redirected to an invalid address', zh: '该地址重定向到了无效地址' },
  url_timeout: { en: 'The source did not answer in time', zh: '源地址响应超时' },
  url_fetch_failed: { en: 'The source could not be fetched: {reason}', zh: '无法获取源地址：{reason}' },
  url_source_status: { en: 'The source answered HTTP {status}', zh: '源地址返回 HTTP {status}' },
  mount_created: { en: 'Mount point created', zh: '挂载点已创建' },
  mount_updated: { en: 'Mount point updated', zh: '挂载点已更新' },
  mount_deleted: { en: 'Mount point deleted', zh: '挂载点已删除' },
  mount_not_found: { en: 'Mount point not found', zh: '挂载点不存在' },
  mount_path_taken: { en: 'A mount point already uses the path {path}', zh: '路径 {path} 已被其他挂载点使用' },
  fs_outside_base_path: { en: 'You can only access {path} and its subdirectories', zh: '您只能访问 {path} 及其子目录' },
  fs_not_found: { en: 'No file or folder at {path}', zh: '{path} 处没有文件或文件夹' },
  fs_not_a_folder: { en: '{path} is not a folder', zh: '{path} 不是文件夹' },
  fs_not_a_file: { en: '{path} is not a file', zh: '{path} 不是文件' },
  fs_name_too_long: {
    en: 'The name in {field} is too long for this storage: the longest that fits here is {max} bytes of UTF-8 (as many Latin letters, or {cjk} Chinese characters)',
    zh: '{field} 中的名称对此存储来说过长：这里最多可容纳 {max} 字节的 UTF-8（即同样多的拉丁字母，或 {cjk} 个汉字）',
  },
  fs_exists: { en: 'Something already exists at {path}', zh: '{path} 已存在' },
  fs_index_rebuilding: { en: 'The index of this mount is being rebuilt', zh: '正在重建此挂载点的索引' },
  fs_index_updated: { en: 'Index settings saved', zh: '索引设置已保存' },
  fs_index_unreadable: {
    en: 'The storage could not be listed, so the index was not built; it is tried again at the next rescan',
    zh: '无法列出存储内容，索引未能建立；将在下次重新扫描时再试',
  },
  job_created: { en: 'Job created', zh: '任务已创建' },
  sync_schedule_created: { en: 'Sync schedule created', zh: '同步计划已创建' },
  sync_schedule_updated: { en: 'Sync schedule updated', zh: '同步计划已更新' },
  sync_schedule_deleted: { en: 'Sync schedule deleted', zh: '同步计划已删除' },
  sync_schedule_not_found: { en: 'Sync schedule not found', zh: '同步计划不存在' },
  job_not_found: { en: 'Job not found', zh: '任务不存在' },
  job_wrong_state: { en: 'The job is {status}: it cannot do that now', zh: '任务当前状态为 {status}，无法执行此操作' },
  job_paused: { en: 'Job paused', zh: '任务已暂停' },
  job_resumed: { en: 'Job resumed', zh: '任务已继续' },
  job_cancelled: { en: 'Job cancelled', zh: '任务已取消' },
  job_retrying: { en: 'Retrying the failed items', zh: '正在重试失败的项目' },
  mirror_unconfirmed: {
    en: 'A mirror also deletes files in the target that the source lacks: confirm it with confirmMirror',
    zh: '镜像同步还会删除目标中源没有的文件：请用 confirmMirror 确认',
  },
  fs_virtual_read_only: {
    en: '{path} is not inside a mount point: nothing can be written there',
    zh: '{path} 不在任何挂载点内，无法写入',
  },
  fs_mount_root: { en: 'A mount point itself cannot be renamed or removed here', zh: '挂载点本身不能在此重命名或删除' },
  fs_into_itself: { en: 'A folder cannot be moved or copied into itself', zh: '不能将文件夹移动或复制到其自身内部' },
  fs_across_mounts: {
    en: 'Renaming works inside one mount point; copy between mount points instead',
    zh: '重命名只能在同一挂载点内进行，跨挂载点请使用复制',
  },
  fs_folder_created: { en: 'Folder created', zh: '文件夹已创建' },
  fs_uploaded: { en: 'File uploaded', zh: '文件已上传' },
  fs_uploaded_batch: { en: '{succeeded} uploaded, {failed} failed', zh: '已上传 {succeeded} 个文件，失败 {failed} 个' },
  fs_upload_too_many_files: {
    en: 'One request takes at most {max} files: send this one in another request',
    zh: '每个请求最多上传 {max} 个文件：请在另一个请求中发送此文件',
  },
  fs_removed: { en: 'Deleted', zh: '已删除' },
  fs_batch_removed: { en: '{succeeded} deleted, {failed} failed', zh: '已删除 {succeeded} 项，失败 {failed} 项' },
  fs_renamed: { en: 'Renamed', zh: '重命名成功' },
  fs_saved: { en: 'File saved', zh: '文件已保存' },
  fs_copied: {
    en: '{copied} copied, {skipped} skipped, {failed} failed',
    zh: '已复制 {copied} 项，跳过 {skipped} 项，失败 {failed} 项',
  },
  fs_copy_verified: { en: '{verified} copies verified, {failed} failed', zh: '已确认 {verified} 个副本，失败 {failed} 个' },
  fs_moved: {
    en: '{moved} moved, {skipped} skipped, {failed} failed',
    zh: '已移动 {moved} 项，跳过 {skipped} 项，失败 {failed} 项',
  },
  fs_move_verified: { en: '{moved} moves verified and their sources deleted, {failed} failed', zh: '已确认 {moved} 项移动并删除其源文件，失败 {failed} 项' },
  fs_upload_not_found: { en: 'This upload is unknown or already finished', zh: '该上传不存在或已结束' },
  fs_key_mismatch: { en: 'The upload key does not belong to {path}', zh: '上传标识与 {path} 不匹配' },
  fs_storage_unavailable: { en: 'The storage of this mount cannot be reached: {reason}', zh: '无法访问此挂载点的存储：{reason}' },
  cache_cleared: { en: '{cleared} cached folders cleared', zh: '已清除 {cleared} 个缓存的文件夹' },
  expense_created: { en: 'Expense claim created', zh: '报销单已创建' },
  expense_updated: { en: 'Expense claim updated', zh: '报销单已更新' },
  expense_deleted: { en: 'Expense claim deleted', zh: '报销单已删除' },
  expense_submitted: { en: 'Expense claim submitted', zh: '报销单已提交' },
  expense_processing: { en: 'Expense claim taken into processing', zh: '报销单已进入处理' },
  expense_approved: { en: 'Expense claim approved', zh: '报销单已批准' },
  expense_rejected: { en: 'Expense claim rejected', zh: '报销单已驳回' },
  expense_not_found: { en: 'Expense claim not found', zh: '报销单不存在' },
  expense_owner_only: { en: 'Only the claim\'s owner can do this', zh: '只有报销单的提交人可以执行此操作' },
  expense_status_conflict: {
    en: 'Not possible while the claim is {status}',
    zh: '报销单处于 {status} 状态，无法执行此操作',
  },
  expense_future_date: { en: 'The date spent cannot be in the future', zh: '消费日期不能晚于今天' },
  expense_unknown_category: {
    en: 'Unknown category "{category}": choose one of the listed categories',
    zh: '未知类别“{category}”：请从列出的类别中选择',
  },
  expense_receipts_full: { en: 'A claim holds at most {max} receipts', zh: '每张报销单最多 {max} 张收据' },
  receipt_uploaded: { en: 'Receipt uploaded', zh: '收据已上传' },
  receipt_deleted: { en: 'Receipt deleted', zh: '收据已删除' },
  receipt_not_found: { en: 'Receipt not found', zh: '收据不存在' },
  receipt_type_refused: {
    en: 'A receipt must be a PNG, JPEG, GIF, WebP image or a PDF',
    zh: '收据必须是 PNG、JPEG、GIF、WebP 图片或 PDF 文件',
  },
  receipt_signature_mismatch: {
    en: 'The file\'s content does not match its type: a receipt must really be the image or PDF its name says',
    zh: '文件内容与其类型不符：收据必须确实是其文件名所示的图片或 PDF',
  },
  internal: { en: 'Internal server error', zh: '服务器内部错误' },
  // Why a storage or fetch failed, as the `{reason}` of the messages above (server/storage/reason.ts).
  reason_name_too_long: { en: 'a name is too long for the storage', zh: '名称对存储来说过长' },
  reason_permission_denied: { en: 'the server may not write or read there', zh: '服务器无权在此读写' },
  reason_read_only: { en: 'the storage is read-only', zh: '存储为只读' },
  reason_no_space: { en: 'the storage is full', zh: '存储空间已满' },
  reason_bucket_missing: { en: 'the bucket does not exist', zh: '存储桶不存在' },
  reason_bad_credentials: { en: 'the storage refused the credentials (access key, user name, password or key)', zh: '存储拒绝了凭据（访问密钥、用户名、密码或私钥）' },
  reason_host_key_mismatch: {
    en: "the server's host key is not the pinned one",
    zh: '服务器的主机密钥与固定的指纹不符',
  },
  reason_access_denied: { en: 'access was denied', zh: '访问被拒绝' },
  reason_host_refused: {
    en: "the server's address is in a private or local network, which this storage may not reach",
    zh: '服务器地址位于私有或本地网络，此存储不允许连接',
  },
  reason_unreachable: { en: 'no connection could be made', zh: '无法建立连接' },
  reason_timeout: { en: 'no answer in time', zh: '响应超时' },
  reason_folder_missing: { en: 'the base folder does not exist on the server', zh: '服务器上不存在基础文件夹' },
  reason_unknown: { en: 'an unexpected error (the server log has the details)', zh: '意外错误（详情见服务器日志）' },
  thumbnail_unsupported: { en: 'No thumbnail can be made of this file here', zh: '此处无法为此文件生成缩略图' },
  thumbnail_unreadable: { en: 'This file could not be read to make a thumbnail', zh: '无法读取此文件以生成缩略图' },
  thumbnail_too_large: { en: 'This file is too large to make a thumbnail of', zh: '此文件过大，无法生成缩略图' },
  thumbnail_busy: { en: 'Too many thumbnails are being made; try again shortly', zh: '正在生成的缩略图过多，请稍后重试' },
} as const satisfies Record<string, { en: string; zh: string }>;

export type MessageKey = keyof typeof messages;
export type Lang = 'en' | 'zh';
/** A message inside another (a failure's reason), translated with it into the same language. */
export interface MessageRef {
  messageKey: MessageKey;
}
export type MessageParams = Record<string, string | number | MessageRef>;

export function translate(key: MessageKey, lang: Lang, params: MessageParams = {}): string {
  return messages[key][lang].replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'object' ? translate(value.messageKey, lang) : String(value);
  });
}

/** zh, zh-CN, zh-Hans… → Chinese; anything else → English. */
export function languageFrom(acceptLanguage: string | undefined): Lang {
  const first = acceptLanguage?.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('zh') ? 'zh' : 'en';
}
