/**
 * Handlers of the file operations.
 * @see operationIds files:create, files:list; spec/openapi.yaml, schema FileCreate
 */
import type { OperationHandler } from '../../handler-types.js';
import { listParamsOf, listRecords, serializedListReply, visibleOrganizations } from '../../listing.js';
import type { FileRecord } from '../../records.js';
import { validationReply } from '../../replies.js';
import { checkUploadPlan, createFile, fileOrganization, type FileCreateBody } from './create.js';
import { serializeFile, serializeFileUpload } from './serializer.js';

/** `files:create`: 200 with the file (is_uploaded false) and its upload parts; 422 for an unsound upload plan. */
export const createFileHandler: OperationHandler = (ctx) => {
  const body = ctx.body as FileCreateBody;
  const organization = fileOrganization(ctx.principal!, body);
  const entries = [...checkUploadPlan(body), ...(organization.ok ? [] : [organization.entry])];
  if (entries.length > 0 || !organization.ok) return validationReply(entries);
  const { file, upload } = createFile(ctx, organization.id, body);
  return { status: 200, body: serializeFileUpload(ctx, file, upload) };
};

/** `files:list`: a page of the caller's files of every service, newest first, by organization_id and ids (200). */
export const listFilesHandler: OperationHandler = (ctx) => {
  const ids = ctx.query.values.ids as string[] | undefined;
  const params = listParamsOf(ctx.query);
  const page = listRecords<FileRecord>(
    {
      collection: ctx.store.files,
      organizationIds: visibleOrganizations(ctx.principal?.organizationIds ?? [], ctx.query.values.organization_id as string[] | undefined),
      keys: { created_at: (file) => file.created_at },
      defaultSorting: [{ key: 'created_at', descending: true }],
      filter: ids ? (file) => ids.includes(file.id) : undefined,
    },
    params,
    ctx.faults,
    ctx.requestNumber,
  );
  return serializedListReply(ctx.store, page.items, page.totalCount, params.limit, ctx.faults, (file) => serializeFile(ctx, file, { listItem: true }), `files ${ctx.apiVersion}`);
};
