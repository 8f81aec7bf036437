const widget = document.querySelector('verify-identity');
if (widget) {
  widget.strings = {
    start: 'Verify me now',
    timeLeft: '{time} remaining',
  };
}
