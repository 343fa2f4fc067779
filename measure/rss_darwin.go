package measure

const isDarwin = true
