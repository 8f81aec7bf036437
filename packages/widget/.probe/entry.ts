export class A {
  #longPrivateName = 1;
  #anotherMethodName() {
    return this.#longPrivateName;
  }
  run() {
    return this.#anotherMethodName();
  }
}
