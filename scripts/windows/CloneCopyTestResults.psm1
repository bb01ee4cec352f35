# Reading an xunit.v3 results file (`-xml FILE`, schema-version 3), for the Windows jobs' test steps
# (run-windows-tests.ps1). xunit exits 0 when a filter matches no test ("Total: 0"), so a step that runs named classes
# must count what ran itself. scripts/check-windows-scripts.sh runs this on Linux against known answers.

# Why the run in XMLTEXT is not a pass; empty when it is. With CLASSES (short names, e.g. FreshSourceParallelCloneTests,
# or full ones): each class must have run and passed at least one test, and none of its tests failed, was skipped or
# was not run. Without: at least one test ran, and none failed. Either way an error outside tests (a class that could
# not be constructed, a fixture that threw) fails.
function Test-XunitResults {
  param([Parameter(Mandatory)] [AllowEmptyString()] [string] $XmlText, [string[]] $Classes = @())
  $why = [System.Collections.Generic.List[string]]::new()
  try { $xml = [xml]$XmlText } catch { return @("the results are not XML: $($_.Exception.Message)") }
  $assemblies = @($xml.SelectNodes('/assemblies/assembly'))
  if ($assemblies.Count -eq 0) { return @('the results name no test assembly') }
  $tests = @($xml.SelectNodes('/assemblies/assembly/collection/test'))
  $errors = ($assemblies | ForEach-Object { [int]$_.GetAttribute('errors') } | Measure-Object -Sum).Sum
  if ($errors -gt 0) { $why.Add("$errors errors outside tests (see the job's results file)") }
  foreach ($test in $tests | Where-Object { $_.GetAttribute('result') -eq 'Fail' }) { $why.Add("failed: $($test.GetAttribute('name'))") }
  if ($Classes.Count -eq 0) {
    if ($tests.Count -eq 0) { $why.Add('no test ran') }
    return @($why)
  }
  foreach ($class in $Classes) {
    $mine = @($tests | Where-Object { $type = $_.GetAttribute('type'); $type -eq $class -or $type.EndsWith(".$class") })
    $passed = @($mine | Where-Object { $_.GetAttribute('result') -eq 'Pass' }).Count
    $other = @($mine | Where-Object { $_.GetAttribute('result') -notin @('Pass', 'Fail') })
    if ($mine.Count -eq 0) { $why.Add("${class}: no test ran (is the class there, and does the filter name it?)") }
    elseif ($passed -eq 0) { $why.Add("${class}: none of its $($mine.Count) tests passed") }
    foreach ($test in $other) { $why.Add("${class}: $($test.GetAttribute('name')) did not run ($($test.GetAttribute('result')))") }
  }
  return @($why)
}

# A measurement's results (run-windows-tests.ps1 -Measure): the classes' tests are run to report what the image does,
# not to pass, so a failed test is data. Returns @{ Lines; Why }: Lines, for the log, each test's result with its output
# and failure message; Why, empty unless the measurement did not happen: the results unreadable, an error outside tests,
# or a class none of whose tests ran (passed or failed: a skipped test measured nothing).
function Get-XunitMeasurement {
  param([Parameter(Mandatory)] [AllowEmptyString()] [string] $XmlText, [Parameter(Mandatory)] [string[]] $Classes)
  $lines = [System.Collections.Generic.List[string]]::new()
  $why = [System.Collections.Generic.List[string]]::new()
  try { $xml = [xml]$XmlText } catch { return @{ Lines = @(); Why = @("the results are not XML: $($_.Exception.Message)") } }
  $assemblies = @($xml.SelectNodes('/assemblies/assembly'))
  if ($assemblies.Count -eq 0) { return @{ Lines = @(); Why = @('the results name no test assembly') } }
  $errors = ($assemblies | ForEach-Object { [int]$_.GetAttribute('errors') } | Measure-Object -Sum).Sum
  if ($errors -gt 0) { $why.Add("$errors errors outside tests (see the job's results file)") }
  $tests = @($xml.SelectNodes('/assemblies/assembly/collection/test'))
  foreach ($class in $Classes) {
    $mine = @($tests | Where-Object { $type = $_.GetAttribute('type'); $type -eq $class -or $type.EndsWith(".$class") })
    foreach ($test in $mine) {
      $lines.Add("$($test.GetAttribute('result')): $($test.GetAttribute('name'))")
      foreach ($node in @($test.SelectSingleNode('output'), $test.SelectSingleNode('failure/message'), $test.SelectSingleNode('reason'))) {
        if ($node -and $node.InnerText.Trim()) { $node.InnerText.Trim() -split "`r?`n" | ForEach-Object { $lines.Add("    $_") } }
      }
    }
    if (@($mine | Where-Object { $_.GetAttribute('result') -in @('Pass', 'Fail') }).Count -eq 0) {
      $why.Add("${class}: no test ran (is the class there, and does the filter name it?)")
    }
  }
  return @{ Lines = @($lines); Why = @($why) }
}

Export-ModuleMember -Function Test-XunitResults, Get-XunitMeasurement
