import { z } from "zod";

export const ToastSchema = z.object({
  id: z.string(),
  type: z.enum(["success", "error", "info"]).default("success"),
  title: z.string().optional(),
  description: z.string(),
});
export type Toast = z.infer<typeof ToastSchema>;
export type ToastInput = Omit<Toast, "id" | "type"> & { id?: string; type?: Toast["type"] };
