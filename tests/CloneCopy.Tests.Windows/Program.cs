using System;
using System.Linq;

namespace CloneCopy.Tests;

/// <summary>
/// The Windows lane's entry point: xunit.v3's own (as it generates it), plus <c>--probe</c>, which prints one line per
/// thing some tests need, "Needs=X yes|no what was found" (<see cref="LaneProbe"/>), for the lanes to leave out what
/// this Windows (or Wine) cannot do.
/// </summary>
internal static class Program
{
    public static int Main(string[] args)
    {
        if (args is ["--probe"])
        {
            foreach (var capability in LaneProbe.All())
            {
                Console.WriteLine(capability);
            }

            return 0;
        }

        if (args.Any(arg => arg is "--server" or "--internal-msbuild-node"))
        {
            return Xunit.MicrosoftTestingPlatform.TestPlatformTestFramework.RunAsync(args, SelfRegisteredExtensions.AddSelfRegisteredExtensions).GetAwaiter().GetResult();
        }

        return Xunit.Runner.InProc.SystemConsole.ConsoleRunner.Run(args).GetAwaiter().GetResult();
    }
}
