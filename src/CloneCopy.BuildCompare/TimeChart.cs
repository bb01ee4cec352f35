using System.Linq;
using ScottPlot;

namespace CloneCopy.BuildCompare;

/// <summary>Every timed build's time, both ways, in the order they ran: drift or one slow outlier shows at a glance.</summary>
public static class TimeChart
{
    /// <summary>Writes the chart as SVG (for pages that embed it) and as PNG beside it (for anything else).</summary>
    public static void Write(ComparisonResult result, string svgPath)
    {
        var plot = new Plot();
        foreach (var way in new[] { BuildWay.MSBuildCopy, BuildWay.CloneCopy })
        {
            var builds = result.Builds.Where(b => b.Way == way && !b.WarmUp).ToList();
            var points = plot.Add.Scatter(builds.Select(b => (double)b.Sequence).ToArray(), builds.Select(b => b.Seconds).ToArray());
            points.LegendText = $"{way.Title()} (median {WayStatistics.Of(way, result.Builds).MedianSeconds:0.00} s)";
            points.MarkerSize = 9;
            points.LineWidth = 0;   // separate builds: a line between them would suggest a trend that is not measured
        }

        plot.Title($"Clean builds of {System.IO.Path.GetFileName(result.Target)}");
        plot.XLabel("build, in the order run");
        plot.Axes.Bottom.TickGenerator = new ScottPlot.TickGenerators.NumericFixedInterval(1);
        plot.YLabel("seconds");
        plot.Axes.SetLimitsY(0, result.Builds.Where(b => !b.WarmUp).Max(b => b.Seconds) * 1.15);   // the timed builds only, as plotted
        plot.ShowLegend(Alignment.LowerRight);
        plot.SaveSvg(svgPath, 800, 450);
        plot.SavePng(System.IO.Path.ChangeExtension(svgPath, ".png"), 800, 450);
    }
}
