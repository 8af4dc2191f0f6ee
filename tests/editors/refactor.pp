# refactor.pp: the editor tests rename a variable and apply the quick fix of a style warning
class refactor {
  $greeting = 'hello'
  notify { 'greeting':
    message => "plain text",
  }
  notify { $greeting: }
}
