/** The task-list tools: create_task, get_task, update_task, list_tasks, delete_task. */
import { z } from "zod";
import type { Task } from "../../../schemas/events";
import { defineTool, type Tool, ToolError } from "./tool";

/** What the task tools need: the conversation's in-memory task list. */
export interface TaskOps {
  listTasks(): Task[];
  getTask(id: string): Task | undefined;
  createTask(subject: string, description?: string): Task;
  updateTask(id: string, patch: Partial<Pick<Task, "subject" | "description" | "status">>): Task | undefined;
  deleteTask(id: string): boolean;
}

export const TaskStatus = z.enum(["pending", "in_progress", "completed"]);
const TaskId = z.string().min(1).describe("The task's id, as returned by create_task or list_tasks.");

export const CreateTaskArgs = z.object({
  subject: z.string().min(1).max(500).describe("Task title."),
  description: z.string().max(10_000).optional().describe("Detailed description."),
});
export const TaskIdArgs = z.object({ task_id: TaskId });
export const UpdateTaskArgs = z.object({
  task_id: TaskId,
  status: TaskStatus.optional().describe('"pending" / "in_progress" / "completed".'),
  subject: z.string().min(1).max(500).optional().describe("New title."),
  description: z.string().max(10_000).optional().describe("New description."),
});

const view = (t: Task) => ({ id: t.id, subject: t.subject, description: t.description, status: t.status });

/** Creates the task tools over a task list. */
export function createTaskTools(ops: TaskOps): Tool[] {
  const mustGet = (id: string) => {
    const task = ops.getTask(id);
    if (!task) throw new ToolError("not_found", `No task with id "${id}". Call list_tasks to see the ids.`);
    return task;
  };
  return [
    defineTool({
      name: "create_task",
      description: "Add a task to this conversation's task list to track progress through multi-step work.",
      parameters: CreateTaskArgs,
      execute: ({ subject, description }) => view(ops.createTask(subject, description)),
    }),
    defineTool({
      name: "get_task",
      description: "Get one task of the task list.",
      parameters: TaskIdArgs,
      execute: ({ task_id }) => view(mustGet(task_id)),
    }),
    defineTool({
      name: "update_task",
      description: "Change a task's status, title or description.",
      parameters: UpdateTaskArgs,
      execute: ({ task_id, ...patch }) => {
        mustGet(task_id);
        return view(ops.updateTask(task_id, patch)!);
      },
    }),
    defineTool({
      name: "list_tasks",
      description: "List all tasks briefly (id, subject, status).",
      parameters: z.object({}),
      execute: () => ops.listTasks().map((t) => ({ id: t.id, subject: t.subject, status: t.status })),
    }),
    defineTool({
      name: "delete_task",
      description: "Remove a task from the list.",
      parameters: TaskIdArgs,
      execute: ({ task_id }) => {
        mustGet(task_id);
        ops.deleteTask(task_id);
        return { deleted: true, task_id };
      },
    }),
  ];
}
