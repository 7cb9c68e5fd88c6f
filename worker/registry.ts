import { demoPurge } from "#worker/jobs/demo-purge.ts";
import { housekeeping } from "#worker/jobs/housekeeping.ts";
import { mail } from "#worker/jobs/mail.ts";
import { smsReconcile } from "#worker/jobs/sms-reconcile.ts";
import { smsSchedule } from "#worker/jobs/sms-schedule.ts";
import { smsScheduleReconcile } from "#worker/jobs/sms-schedule-reconcile.ts";
import { smsSend } from "#worker/jobs/sms-send.ts";
import { groupSend } from "#worker/jobs/group-send.ts";
import { smsInbound } from "#worker/jobs/sms-inbound.ts";
import { webhooks } from "#worker/jobs/webhooks.ts";
import type { JobDefinition } from "#worker/job-definition.ts";

export const jobDefinitions: JobDefinition[] = [
  housekeeping,
  mail,
  smsSend,
  smsReconcile,
  smsSchedule,
  smsScheduleReconcile,
  groupSend,
  demoPurge,
  smsInbound,
  webhooks,
];
