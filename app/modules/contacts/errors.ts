// Typed failures of the contacts domain: the screens and the REST API map them to their own answers.

/** The id is not one of this user's contacts or groups (or does not exist): a 404 to the caller. */
export class NotFoundError extends Error {
  readonly code = "not_found";
  constructor(what: "contact" | "group" | "group send" | "import" | "member") {
    super(`No such ${what}`);
    this.name = "NotFoundError";
  }
}

export class DuplicatePhoneError extends Error {
  readonly code = "duplicate_phone";
  readonly phone: string;
  readonly existingName: string;
  constructor(phone: string, existingName: string) {
    super(`You already have a contact with the phone number ${phone} (${existingName})`);
    this.name = "DuplicatePhoneError";
    this.phone = phone;
    this.existingName = existingName;
  }
}

export class DuplicateGroupNameError extends Error {
  readonly code = "duplicate_group_name";
  constructor(name: string) {
    super(`You already have a group named "${name}"`);
    this.name = "DuplicateGroupNameError";
  }
}

/** A group send to a group without contacts. */
export class EmptyGroupError extends Error {
  readonly code = "empty_group";
  constructor() {
    super("This group has no contacts: add contacts to it first");
    this.name = "EmptyGroupError";
  }
}

/** A send to a contact (or a whole group of contacts) that opted out. */
export class InactiveContactError extends Error {
  readonly code = "inactive_contact";
  readonly members: number;
  constructor(members = 1) {
    super(
      members === 1
        ? "This contact is inactive (opted out): mark it active to send to it"
        : `All ${members} contacts of this group are inactive (opted out): nothing to send`,
    );
    this.name = "InactiveContactError";
    this.members = members;
  }
}
