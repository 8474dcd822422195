/** Entry-point decorators more than one language's frameworks write. */

/**
 * Decorators that make a function a CLI command (click, typer: `@app.command`, `@cli.group`), a task
 * (`@shared_task`, `@periodic_task`) or an event handler (`@bus.subscribe`, `@on("ready")`).
 */
export const COMMAND_DECORATORS = new RegExp(
  String.raw`^@([\w.]+\.)?(command|group|subcommand|callback|cli|task|shared_task|handler|listener|` +
    String.raw`subscribe|on|event|consumer|job|periodic_task)\b`,
);
