// Typed failures of routing: the admin screens show each next to the field it is about.

/** No upstream (or route) with this id: a 404 to the caller. */
export class RoutingNotFoundError extends Error {
  constructor(what: "upstream" | "route") {
    super(`No such ${what}`);
    this.name = "RoutingNotFoundError";
  }
}

/** The input cannot be saved as it is; `field` names the form field the message belongs next to. */
export class RoutingInputError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.name = "RoutingInputError";
    this.field = field;
  }
}
